package dev.cairn.retrieval.dense;

import java.util.Objects;

/**
 * How a {@link DenseIndex} searches.
 *
 * @param strategy exact, approximate (HNSW) or chosen by namespace size
 * @param efSearch HNSW candidate list size for approximate search, in [1, {@value #MAX_EF_SEARCH}]
 *     (pgvector's {@code hnsw.ef_search}); raised to {@code k} when smaller
 */
public record DenseOptions(Strategy strategy, int efSearch) {

    /** pgvector's default {@code hnsw.ef_search} is 40; 100 buys recall for little latency. */
    public static final int DEFAULT_EF_SEARCH = 100;

    /** pgvector's upper limit for {@code hnsw.ef_search}. */
    public static final int MAX_EF_SEARCH = 1000;

    public DenseOptions {
        Objects.requireNonNull(strategy, "strategy");
        if (efSearch < 1 || efSearch > MAX_EF_SEARCH) {
            throw new IllegalArgumentException(
                    "illegal efSearch: " + efSearch + ", must be in [1, " + MAX_EF_SEARCH + "]");
        }
    }

    /** {@link Strategy#AUTO} with {@link #DEFAULT_EF_SEARCH}. */
    public static DenseOptions defaults() {
        return new DenseOptions(Strategy.AUTO, DEFAULT_EF_SEARCH);
    }

    public static DenseOptions exact() {
        return new DenseOptions(Strategy.EXACT, DEFAULT_EF_SEARCH);
    }

    public static DenseOptions approximate(int efSearch) {
        return new DenseOptions(Strategy.APPROXIMATE, efSearch);
    }

    /** Dense search strategies. */
    public enum Strategy {
        /**
         * Exact below {@link dev.cairn.store.StoreConfig#exactSearchThreshold()} embedded chunks in
         * the namespace, approximate above.
         */
        AUTO,
        /** Scan every vector of the namespace: perfect recall. */
        EXACT,
        /**
         * HNSW: pgvector's index in PostgreSQL; in the embedded store, a Lucene HNSW graph built in
         * memory over {@link dev.cairn.retrieval.store.DocumentRepository#forEachEmbedding}.
         */
        APPROXIMATE
    }
}
