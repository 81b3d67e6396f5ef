package dev.cairn.retrieval.dense;

import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.StoredChunk;
import dev.cairn.store.Namespace;
import dev.cairn.store.Records;
import dev.cairn.store.SqlAccess;
import dev.cairn.store.Store;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * PostgreSQL's own vector search over the chunks table: pgvector's {@code <=>} (cosine distance,
 * {@code 1 - cos}) with its HNSW index ({@code chunks_embedding_hnsw}, retrieval's migration V010),
 * or an exact scan of the namespace. {@link DenseOptions.Strategy#AUTO} scans exactly below {@link
 * dev.cairn.store.StoreConfig#exactSearchThreshold()} embedded chunks, as the embedded store's
 * {@link SizeAwareDenseIndex} does. The table is the index, so the update methods do nothing.
 * Thread-safe: each search runs on its own connection.
 */
final class PgvectorDenseIndex implements DenseIndex {

    /**
     * Exact search: "+ 0" keeps the planner off the HNSW index, so it scans the namespace and
     * sorts. Parameters: query, namespace, query, k.
     */
    static final String EXACT_SQL =
            "SELECT id, embedding <=> ? AS distance FROM chunks"
                    + " WHERE namespace = ? AND embedding IS NOT NULL"
                    + " ORDER BY (embedding <=> ?) + 0, id LIMIT ?";

    /**
     * Approximate search: the HNSW index can serve this order. Parameters: query, namespace, query,
     * k.
     */
    static final String APPROXIMATE_SQL =
            "SELECT id, embedding <=> ? AS distance FROM chunks"
                    + " WHERE namespace = ? AND embedding IS NOT NULL"
                    + " ORDER BY embedding <=> ? LIMIT ?";

    private static final Comparator<DenseHit> BEST_FIRST =
            Comparator.comparingDouble(DenseHit::similarity)
                    .reversed()
                    .thenComparing(DenseHit::chunkId);

    private final SqlAccess sql;
    private final DocumentRepository documents;
    private final DenseOptions options;
    private final int dimensions;
    private final long exactSearchThreshold;
    private final boolean iterativeScan;

    PgvectorDenseIndex(Store store, DocumentRepository documents, DenseOptions options) {
        if (store.kind() != Store.Kind.POSTGRES) {
            throw new IllegalArgumentException(
                    "illegal store: " + store.kind() + ", pgvector search needs POSTGRES");
        }
        this.sql = store.sql();
        this.documents = documents;
        this.options = options;
        this.dimensions = store.config().dimensions();
        this.exactSearchThreshold = store.config().exactSearchThreshold();
        this.iterativeScan = pgvectorAtLeast(sql, 0, 8);
    }

    @Override
    public List<DenseHit> search(String namespace, float[] query, int k) {
        Namespace.requireValidName(namespace);
        float[] q = query.clone();
        requireQuery(q, k);
        boolean exact =
                switch (options.strategy()) {
                    case EXACT -> true;
                    case APPROXIMATE -> false;
                    case AUTO -> !documents.hasEmbeddedChunks(namespace, exactSearchThreshold);
                };
        List<DenseHit> hits =
                exact
                        ? sql.read(c -> hits(c, EXACT_SQL, namespace, q, k))
                        : sql.read(c -> approximate(c, namespace, q, k));
        hits.sort(BEST_FIRST);
        return hits;
    }

    /** The HNSW search with this index's {@code ef_search}, in a transaction of its own. */
    private List<DenseHit> approximate(Connection c, String namespace, float[] query, int k)
            throws SQLException {
        int ef = Math.min(DenseOptions.MAX_EF_SEARCH, Math.max(k, options.efSearch()));
        c.setAutoCommit(false); // SET LOCAL holds until the transaction ends
        try {
            try (Statement s = c.createStatement()) {
                s.execute("SET LOCAL hnsw.ef_search = " + ef);
                if (iterativeScan) {
                    // Keep scanning the graph until k rows of this namespace pass the filter.
                    s.execute("SET LOCAL hnsw.iterative_scan = strict_order");
                }
            }
            // The planner still chooses: for a small namespace a scan of it plus a sort is
            // cheaper.
            return hits(c, APPROXIMATE_SQL, namespace, query, k);
        } finally {
            c.rollback(); // read only: nothing to keep, and the settings go with it
            c.setAutoCommit(true);
        }
    }

    private List<DenseHit> hits(Connection c, String select, String namespace, float[] query, int k)
            throws SQLException {
        List<DenseHit> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(select)) {
            sql.bindVector(ps, 1, query);
            ps.setString(2, namespace);
            sql.bindVector(ps, 3, query);
            ps.setInt(4, k);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    double distance = rs.getDouble("distance");
                    if (!Double.isNaN(distance)) { // a stored zero vector has no direction
                        out.add(new DenseHit(rs.getString("id"), 1.0 - distance));
                    }
                }
            }
        }
        return out;
    }

    /** Refuses what pgvector cannot rank: a wrong length, a non-finite component, no direction. */
    private void requireQuery(float[] query, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("illegal k: " + k + ", must be >= 1");
        }
        if (query.length != dimensions) {
            throw new IllegalArgumentException(
                    "illegal query dimension: " + query.length + ", must be " + dimensions);
        }
        Records.requireFinite(query, "query");
        for (float v : query) {
            if (v != 0) {
                return;
            }
        }
        throw new IllegalArgumentException("illegal query: all zeros, must have a direction");
    }

    private static boolean pgvectorAtLeast(SqlAccess sql, int major, int minor) {
        return sql.read(
                c -> {
                    try (Statement s = c.createStatement();
                            ResultSet rs =
                                    s.executeQuery(
                                            "SELECT extversion FROM pg_extension"
                                                    + " WHERE extname = 'vector'")) {
                        if (!rs.next()) {
                            throw new IllegalStateException(
                                    "the vector extension is not installed");
                        }
                        String[] parts = rs.getString(1).split("\\.");
                        int maj = Integer.parseInt(parts[0]);
                        int min = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
                        return maj > major || (maj == major && min >= minor);
                    }
                });
    }

    @Override
    public void replaceDocument(String namespace, String documentId, List<StoredChunk> chunks) {
        // the store's rows are the index
    }

    @Override
    public void removeDocument(String namespace, String documentId) {
        // the store's rows are the index
    }

    @Override
    public void removeNamespace(String namespace) {
        // the store's rows are the index
    }

    @Override
    public void removeAll() {
        // the store's rows are the index
    }
}
