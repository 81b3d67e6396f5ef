package dev.cairn.retrieval.dense;

import static dev.cairn.retrieval.store.TestDocuments.chunks;
import static dev.cairn.retrieval.store.TestDocuments.doc;
import static dev.cairn.retrieval.store.TestDocuments.randomVector;
import static dev.cairn.retrieval.store.TestDocuments.vector;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.TestDocuments;
import dev.cairn.store.PostgresTestDatabase;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL's vector search ({@link DenseIndex#pgvector}), what retrieve's dense signal runs on
 * PostgreSQL: exact and HNSW answers against a brute-force cosine, in a fresh schema per test
 * (skipped without a database unless {@code CAIRN_REQUIRE_PG} is set). The embedded store's search
 * is {@link SizeAwareDenseIndex}'s ({@code SizeAwareDenseIndexTest}).
 */
class PgvectorDenseIndexTest {

    static final int DIMS = TestDocuments.DIMS;
    static final long SEED = 20261122L;

    private PostgresTestDatabase db;
    private Store store;
    private DocumentRepository documents;

    @BeforeEach
    void open() {
        PostgresTestDatabase.assumeAvailable();
        db = PostgresTestDatabase.create();
        store =
                Store.postgres(
                        db.jdbcUrl(),
                        StoreConfig.defaults().withDimensions(DIMS).withMaxPoolSize(4));
        documents = DocumentRepository.over(store);
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
        if (db != null) {
            db.close();
        }
    }

    private List<DenseHit> search(String ns, float[] query, int k, DenseOptions options) {
        return DenseIndex.pgvector(store, documents, options).search(ns, query, k);
    }

    @Test
    void exactSearchOrdersLikeBruteForceCosine() {
        Map<String, float[]> vectors = fillRandom("vec", 5, 40, new Random(SEED));
        for (long s = 0; s < 5; s++) {
            float[] query = randomVector(new Random(SEED + 100 + s));

            List<DenseHit> hits = search("vec", query, 15, DenseOptions.exact());

            List<DenseHit> expected = bruteForce(vectors, query, 15);
            assertThat(hits).as("seed %d", SEED + 100 + s).hasSize(15);
            for (int i = 0; i < hits.size(); i++) {
                assertThat(hits.get(i).similarity())
                        .as("rank %d, seed %d", i, SEED + 100 + s)
                        .isCloseTo(expected.get(i).similarity(), within(1e-5));
            }
            assertThat(hits)
                    .extracting(DenseHit::chunkId)
                    .as("seed %d", SEED + 100 + s)
                    .isEqualTo(expected.stream().map(DenseHit::chunkId).toList());
        }
    }

    @Test
    void approximateSearchRecallsAlmostAllOfTheTrueNeighbours() {
        Map<String, float[]> vectors = fillRandom("vec", 20, 50, new Random(SEED));
        fillRandom("noise", 5, 50, new Random(SEED + 1)); // other namespace in the same index
        int k = 10;
        int found = 0;
        int queries = 20;
        for (int s = 0; s < queries; s++) {
            float[] query = randomVector(new Random(SEED + 1000 + s));
            List<DenseHit> hits = search("vec", query, k, DenseOptions.approximate(100));
            Set<String> truth = new HashSet<>();
            bruteForce(vectors, query, k).forEach(h -> truth.add(h.chunkId()));
            assertThat(hits)
                    .hasSize(k)
                    .extracting(DenseHit::chunkId)
                    .allMatch(id -> id.startsWith("d"));
            assertThat(hits)
                    .extracting(DenseHit::similarity)
                    .isSortedAccordingTo(Comparator.reverseOrder());
            found += (int) hits.stream().filter(h -> truth.contains(h.chunkId())).count();
        }
        double recall = found / (double) (k * queries);
        assertThat(recall)
                .as("recall@%d over %d queries, seed %d", k, queries, SEED)
                .isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void autoSearchIsExactBelowTheThreshold() {
        Map<String, float[]> vectors = fillRandom("vec", 2, 30, new Random(SEED));
        float[] query = randomVector(new Random(SEED + 7));

        List<DenseHit> hits = search("vec", query, 5, DenseOptions.defaults());

        assertThat(hits)
                .extracting(DenseHit::chunkId)
                .isEqualTo(bruteForce(vectors, query, 5).stream().map(DenseHit::chunkId).toList());
    }

    @Test
    void skipsChunksWithoutEmbeddingAndOtherNamespaces() {
        store.createNamespace("vec", "");
        store.createNamespace("other", "");
        documents.replaceDocument("vec", doc("plain", "P"), chunks(3, false));
        documents.replaceDocument("vec", doc("dense", "D"), chunks(2, true));
        documents.replaceDocument("other", doc("elsewhere", "E"), chunks(2, true));

        assertThat(search("vec", vector(0), 10, DenseOptions.exact()))
                .extracting(DenseHit::chunkId)
                .containsExactlyInAnyOrder("dense#0", "dense#1");
        assertThat(search("gone", vector(0), 10, DenseOptions.approximate(40))).isEmpty();
    }

    @Test
    void rejectsBadQueries() {
        store.createNamespace("vec", "");

        assertThatThrownBy(() -> search("vec", new float[DIMS - 1], 5, DenseOptions.exact()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension: " + (DIMS - 1));
        assertThatThrownBy(() -> search("vec", new float[DIMS], 5, DenseOptions.exact()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zeros");
        float[] notFinite = vector(1);
        notFinite[3] = Float.NaN;
        assertThatThrownBy(() -> search("vec", notFinite, 5, DenseOptions.exact()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("query[3]");
        assertThatThrownBy(() -> search("vec", vector(1), 0, DenseOptions.exact()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("k: 0");
    }

    @Test
    void hnswIndexServesTheApproximateQueryButNotTheExactOne() {
        fillRandom("vec", 2, 50, new Random(SEED));

        // The planner picks a scan plus sort for a table this small; with sorting disabled, the
        // ordered HNSW scan wins wherever the index can serve the query.
        assertThat(plan(PgvectorDenseIndex.APPROXIMATE_SQL)).contains("chunks_embedding_hnsw");
        assertThat(plan(PgvectorDenseIndex.EXACT_SQL)).doesNotContain("hnsw");
    }

    @Test
    void theEmbeddedStoreHasNoPgvectorSearch(@TempDir Path dir) {
        try (Store embedded = Store.embedded(dir, StoreConfig.defaults().withDimensions(DIMS))) {
            assertThatThrownBy(
                            () ->
                                    DenseIndex.pgvector(
                                            embedded,
                                            DocumentRepository.over(embedded),
                                            DenseOptions.defaults()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("EMBEDDED");
        }
    }

    /** The plan of {@code sql} with sorting disabled, on one of the store's own connections. */
    private String plan(String sql) {
        return store.sql()
                .read(
                        c -> {
                            c.setAutoCommit(false);
                            try {
                                try (Statement s = c.createStatement()) {
                                    s.execute("SET LOCAL enable_sort = off");
                                }
                                StringBuilder plan = new StringBuilder();
                                try (PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql)) {
                                    store.sql().bindVector(ps, 1, vector(1));
                                    ps.setString(2, "vec");
                                    store.sql().bindVector(ps, 3, vector(1));
                                    ps.setInt(4, 10);
                                    try (ResultSet rs = ps.executeQuery()) {
                                        while (rs.next()) {
                                            plan.append(rs.getString(1)).append('\n');
                                        }
                                    }
                                }
                                return plan.toString();
                            } finally {
                                c.rollback();
                                c.setAutoCommit(true);
                            }
                        });
    }

    // ---- helpers -------------------------------------------------------------------------

    private Map<String, float[]> fillRandom(String ns, int docs, int perDoc, Random random) {
        return TestDocuments.fillRandom(store, documents, ns, docs, perDoc, random);
    }

    private static List<DenseHit> bruteForce(Map<String, float[]> vectors, float[] query, int k) {
        return vectors.entrySet().stream()
                .map(e -> new DenseHit(e.getKey(), cosine(query, e.getValue())))
                .sorted(
                        Comparator.comparingDouble(DenseHit::similarity)
                                .reversed()
                                .thenComparing(DenseHit::chunkId))
                .limit(k)
                .toList();
    }

    private static double cosine(float[] q, float[] v) {
        double dot = 0;
        double qq = 0;
        double vv = 0;
        for (int i = 0; i < v.length; i++) {
            dot += (double) q[i] * v[i];
            qq += (double) q[i] * q[i];
            vv += (double) v[i] * v[i];
        }
        return dot / (Math.sqrt(qq) * Math.sqrt(vv));
    }
}
