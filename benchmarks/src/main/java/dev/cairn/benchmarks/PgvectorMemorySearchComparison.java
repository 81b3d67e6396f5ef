package dev.cairn.benchmarks;

import com.pgvector.PGvector;
import dev.cairn.retrieval.dense.UnitVectors;
import dev.cairn.store.vector.NearestVectors;
import dev.cairn.store.vector.VectorHit;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Issue 43, item 3: a memory namespace's top-100 nearest memories from pgvector's HNSW index (its
 * candidates re-scored exactly, by the cosine recall computes) against recall's exact scan of the
 * resident table, on vectors already in a PostgreSQL table with Cairn's {@code memories} columns
 * ({@code namespace}, {@code id}, {@code embedding}). For each query: the in-process scan as recall
 * runs it alone ({@code parallelFrom(2000)}) and sequentially, the exact search in SQL (the planner
 * kept off the index, as {@code PgvectorDenseIndex} does for small knowledge namespaces), and the
 * HNSW search at each {@code ef_search} given, with pgvector's iterative scan (strict order) so
 * that the namespace filter still yields 100 rows. Prints p50/p99 per way and the HNSW top-100's
 * overlap with the exact top-100. Measurement only: recall does not use it.
 *
 * <p>The queries are the vectors of {@code QUERIES} memories of {@code QUERY_NAMESPACE} in {@code
 * QUERY_TABLE} (held-out texts of the same kind), so no encoder runs. Every query is asked {@code
 * PASSES} times after one unmeasured pass. Run (PostgreSQL on loopback):
 *
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -Pbenchmarks -DskipTests
 * java --add-modules jdk.incubator.vector -cp benchmarks/target/benchmarks.jar \
 *   dev.cairn.benchmarks.PgvectorMemorySearchComparison JDBC_URL TABLE NAMESPACE QUERY_TABLE \
 *   QUERY_NAMESPACE QUERIES PASSES EF...
 * </pre>
 */
public final class PgvectorMemorySearchComparison {

    static final int K = 100;

    private PgvectorMemorySearchComparison() {}

    record Row(String id, float[] vector) {}

    public static void main(String[] args) throws SQLException {
        if (args.length < 8) {
            System.err.println(
                    "usage: PgvectorMemorySearchComparison JDBC_URL TABLE NAMESPACE QUERY_TABLE"
                            + " QUERY_NAMESPACE QUERIES PASSES EF...");
            System.exit(2);
        }
        String table = tableName(args[1]);
        String namespace = args[2];
        int passes = Integer.parseInt(args[6]);
        int[] efs = Arrays.stream(args, 7, args.length).mapToInt(Integer::parseInt).toArray();
        try (Connection c = DriverManager.getConnection(args[0])) {
            List<Row> rows = rows(c, table, namespace, Integer.MAX_VALUE);
            List<Row> queries = rows(c, tableName(args[3]), args[4], Integer.parseInt(args[5]));
            System.out.printf(
                    "%s: namespace %s, %d memories; %d queries from %s/%s, %d passes%n",
                    table, namespace, rows.size(), queries.size(), args[3], args[4], passes);
            System.out.println(plan(c, table, namespace, queries.getFirst().vector(), efs[0]));
            NearestVectors alone = UnitVectors.scan().parallelFrom(2_000);
            NearestVectors sequential = UnitVectors.scan();
            List<List<String>> exact = new ArrayList<>();
            for (Row q : queries) {
                exact.add(ids(alone.nearest(rows, Row::id, Row::vector, q.vector(), K)));
            }
            report(
                    "in process, as recall alone",
                    passes,
                    queries,
                    q -> ids(alone.nearest(rows, Row::id, Row::vector, q, K)),
                    exact);
            report(
                    "in process, sequential",
                    passes,
                    queries,
                    q -> ids(sequential.nearest(rows, Row::id, Row::vector, q, K)),
                    exact);
            report(
                    "SQL exact (no index)",
                    passes,
                    queries,
                    q -> exactSql(c, table, namespace, q),
                    exact);
            for (int ef : efs) {
                report(
                        "SQL HNSW ef_search=" + ef + " + re-score",
                        passes,
                        queries,
                        q -> hnsw(c, table, namespace, q, ef),
                        exact);
            }
        }
    }

    static String tableName(String name) {
        if (!name.matches("[a-z_][a-z0-9_.]*")) {
            throw new IllegalArgumentException("illegal table name: " + name);
        }
        return name;
    }

    interface Search {
        List<String> top(float[] query) throws SQLException;
    }

    /** Times each query's search over the passes (after one unmeasured), and its overlap. */
    static void report(
            String name, int passes, List<Row> queries, Search search, List<List<String>> exact)
            throws SQLException {
        for (Row q : queries) {
            search.top(q.vector());
        }
        List<Double> millis = new ArrayList<>();
        double overlapSum = 0;
        int overlapMin = K;
        for (int p = 0; p < passes; p++) {
            for (int i = 0; i < queries.size(); i++) {
                long start = System.nanoTime();
                List<String> top = search.top(queries.get(i).vector());
                millis.add((System.nanoTime() - start) / 1e6);
                Set<String> common = new HashSet<>(top);
                common.retainAll(exact.get(i));
                overlapSum += common.size();
                overlapMin = Math.min(overlapMin, common.size());
            }
        }
        millis.sort(Comparator.naturalOrder());
        System.out.printf(
                "%-36s p50 %7.2f ms  p99 %7.2f ms  overlap with exact top-%d: mean %.1f%%, min %d%%%n",
                name,
                millis.get(millis.size() / 2),
                millis.get((int) (millis.size() * 0.99)),
                K,
                100.0 * overlapSum / (K * millis.size()),
                overlapMin);
    }

    static List<String> exactSql(Connection c, String table, String namespace, float[] q)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT id FROM "
                                + table
                                + " WHERE namespace = ? AND embedding IS NOT NULL"
                                + " ORDER BY (embedding <=> ?) + 0, id LIMIT "
                                + K)) {
            ps.setString(1, namespace);
            ps.setObject(2, new PGvector(q));
            return strings(ps);
        }
    }

    /** HNSW candidates with their vectors, re-scored by recall's cosine, best first, ties by id. */
    static List<String> hnsw(Connection c, String table, String namespace, float[] q, int ef)
            throws SQLException {
        c.setAutoCommit(false);
        try {
            try (Statement s = c.createStatement()) {
                s.execute("SET LOCAL hnsw.ef_search = " + ef);
                s.execute("SET LOCAL hnsw.iterative_scan = strict_order");
                // the index, not the planner's scan of the namespace and sort, which it prefers
                // for a small namespace: that is the exact search above
                s.execute("SET LOCAL enable_sort = off");
            }
            List<VectorHit> hits = new ArrayList<>();
            try (PreparedStatement ps =
                    c.prepareStatement(
                            "SELECT id, embedding::real[] FROM "
                                    + table
                                    + " WHERE namespace = ?"
                                    + " AND embedding IS NOT NULL ORDER BY embedding <=> ? LIMIT "
                                    + K)) {
                ps.setString(1, namespace);
                ps.setObject(2, new PGvector(q));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        hits.add(
                                new VectorHit(
                                        rs.getString(1),
                                        UnitVectors.cosine(q, floats(rs.getArray(2)))));
                    }
                }
            }
            hits.sort(VectorHit.BEST_FIRST);
            return ids(hits);
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    static String plan(Connection c, String table, String namespace, float[] q, int ef)
            throws SQLException {
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL hnsw.ef_search = " + ef);
            s.execute("SET LOCAL hnsw.iterative_scan = strict_order");
            s.execute("SET LOCAL enable_sort = off");
            try (PreparedStatement ps =
                    c.prepareStatement(
                            "EXPLAIN SELECT id FROM "
                                    + table
                                    + " WHERE namespace = ? AND embedding IS NOT NULL"
                                    + " ORDER BY embedding <=> ? LIMIT "
                                    + K)) {
                ps.setString(1, namespace);
                ps.setObject(2, new PGvector(q));
                return "HNSW query's plan: "
                        + String.join(" | ", strings(ps))
                                .replaceAll("'\\[[^]]*]'", "'[query]'")
                                .replaceAll("\\s+", " ");
            }
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    static List<Row> rows(Connection c, String table, String namespace, int limit)
            throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT id, embedding::real[] FROM "
                                + table
                                + " WHERE namespace = ?"
                                + " AND embedding IS NOT NULL ORDER BY id LIMIT ?")) {
            ps.setString(1, namespace);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Row(rs.getString(1), floats(rs.getArray(2))));
                }
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(
                    "no memories with a vector in " + table + " for " + namespace);
        }
        return rows;
    }

    static float[] floats(Array array) throws SQLException {
        Object[] values = (Object[]) array.getArray();
        float[] v = new float[values.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = ((Number) values[i]).floatValue();
        }
        return v;
    }

    static List<String> strings(PreparedStatement ps) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    static List<String> ids(List<VectorHit> hits) {
        return hits.stream().map(VectorHit::id).toList();
    }
}
