package dev.cairn.store;

import java.time.Duration;

/**
 * Settings of a {@link Store}. Immutable.
 *
 * @param dimensions length of every stored embedding; fixed when the store is first created (the
 *     PostgreSQL column is {@code vector(dimensions)}), 1..{@value #MAX_DIMENSIONS}
 * @param exactSearchThreshold {@link DenseOptions.Strategy#AUTO} searches exactly while a namespace
 *     has fewer embedded chunks than this (exact is both faster and exact there), >= 0
 * @param maxPoolSize most JDBC connections a PostgreSQL store keeps open; most concurrent read-only
 *     connections of the embedded store (plus its one writer), >= 1
 * @param catchUpInterval how often the {@link ChangeLog} looks for changes written by other servers
 *     sharing the database; zero: only on demand. Not negative.
 */
public record StoreConfig(
        int dimensions, int exactSearchThreshold, int maxPoolSize, Duration catchUpInterval) {

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

    /**
     * Often enough that a write on one server is visible on every other within a second, and cheap:
     * one indexed {@code max(seq)} query per round when nothing changed.
     */
    public static final Duration DEFAULT_CATCH_UP_INTERVAL = Duration.ofMillis(500);

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
        if (catchUpInterval == null || catchUpInterval.isNegative()) {
            throw new IllegalArgumentException(
                    "illegal catchUpInterval: " + catchUpInterval + ", must be >= 0");
        }
    }

    /**
     * The defaults: 384 dimensions, exact search below 20,000 chunks, 10 connections, catch-up
     * every 500 ms.
     */
    public static StoreConfig defaults() {
        return new StoreConfig(
                DEFAULT_DIMENSIONS,
                DEFAULT_EXACT_SEARCH_THRESHOLD,
                DEFAULT_MAX_POOL_SIZE,
                DEFAULT_CATCH_UP_INTERVAL);
    }

    public StoreConfig withDimensions(int dimensions) {
        return new StoreConfig(dimensions, exactSearchThreshold, maxPoolSize, catchUpInterval);
    }

    public StoreConfig withExactSearchThreshold(int exactSearchThreshold) {
        return new StoreConfig(dimensions, exactSearchThreshold, maxPoolSize, catchUpInterval);
    }

    public StoreConfig withMaxPoolSize(int maxPoolSize) {
        return new StoreConfig(dimensions, exactSearchThreshold, maxPoolSize, catchUpInterval);
    }

    public StoreConfig withCatchUpInterval(Duration catchUpInterval) {
        return new StoreConfig(dimensions, exactSearchThreshold, maxPoolSize, catchUpInterval);
    }
}
