package dev.cairn.retrieval.store;

/**
 * Settings of a {@link Store}. Immutable.
 *
 * @param dimensions length of every stored embedding; fixed when the store is first created (the
 *     PostgreSQL column is {@code vector(dimensions)}), 1..{@value #MAX_DIMENSIONS}
 * @param exactSearchThreshold {@link DenseOptions.Strategy#AUTO} searches exactly while a namespace
 *     has fewer embedded chunks than this (exact is both faster and exact there), >= 0
 * @param maxPoolSize most JDBC connections a PostgreSQL store keeps open; most concurrent read-only
 *     connections of the embedded store (plus its one writer), >= 1
 */
public record StoreConfig(int dimensions, int exactSearchThreshold, int maxPoolSize) {

    /** Dimensions of the default embedding model (all-MiniLM-L6-v2, bge-small). */
    public static final int DEFAULT_DIMENSIONS = 384;

    /** pgvector's limit for an HNSW-indexed {@code vector} column. */
    public static final int MAX_DIMENSIONS = 2000;

    /**
     * Below this many embedded chunks in a namespace an exact scan beats HNSW in latency, and it
     * has perfect recall.
     */
    public static final int DEFAULT_EXACT_SEARCH_THRESHOLD = 20_000;

    /** Enough for a server on a few cores; PostgreSQL's default max_connections is 100. */
    public static final int DEFAULT_MAX_POOL_SIZE = 10;

    public StoreConfig {
        if (dimensions < 1 || dimensions > MAX_DIMENSIONS) {
            throw new IllegalArgumentException(
                    "illegal dimensions: "
                            + dimensions
                            + ", must be in [1, "
                            + MAX_DIMENSIONS
                            + "]");
        }
        if (exactSearchThreshold < 0) {
            throw new IllegalArgumentException(
                    "illegal exactSearchThreshold: " + exactSearchThreshold + ", must be >= 0");
        }
        if (maxPoolSize < 1) {
            throw new IllegalArgumentException(
                    "illegal maxPoolSize: " + maxPoolSize + ", must be >= 1");
        }
    }

    /** The defaults: 384 dimensions, exact search below 20,000 chunks, 10 connections. */
    public static StoreConfig defaults() {
        return new StoreConfig(
                DEFAULT_DIMENSIONS, DEFAULT_EXACT_SEARCH_THRESHOLD, DEFAULT_MAX_POOL_SIZE);
    }

    public StoreConfig withDimensions(int dimensions) {
        return new StoreConfig(dimensions, exactSearchThreshold, maxPoolSize);
    }

    public StoreConfig withExactSearchThreshold(int exactSearchThreshold) {
        return new StoreConfig(dimensions, exactSearchThreshold, maxPoolSize);
    }

    public StoreConfig withMaxPoolSize(int maxPoolSize) {
        return new StoreConfig(dimensions, exactSearchThreshold, maxPoolSize);
    }
}
