package dev.cairn.retrieval;

import dev.cairn.retrieval.dense.DenseOptions;
import dev.cairn.retrieval.ingest.ChunkingConfig;
import dev.cairn.retrieval.lexical.LexicalConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link KnowledgeBase}.
 *
 * @param chunking chunk size and overlap in model tokens
 * @param lexical BM25 parameters and analysis
 * @param dense how vectors are searched: pgvector in PostgreSQL; in the embedded store exact in
 *     memory below the store's exact-search threshold and Lucene HNSW above it
 * @param lexicalTimeout deadline of the lexical signal
 * @param denseTimeout deadline of the dense signal, query embedding included
 * @param graphTimeout deadline of the graph signal
 * @param maxDocumentBytes the largest document accepted (UTF-8 bytes)
 * @param traceRetention traces kept per namespace; older ones are pruned
 * @param grounding thresholds of the answer plan
 */
public record RetrievalConfig(
        ChunkingConfig chunking,
        LexicalConfig lexical,
        DenseOptions dense,
        Duration lexicalTimeout,
        Duration denseTimeout,
        Duration graphTimeout,
        long maxDocumentBytes,
        int traceRetention,
        Grounding.Thresholds grounding) {

    public static final Duration DEFAULT_SIGNAL_TIMEOUT = Duration.ofSeconds(2);
    public static final long DEFAULT_MAX_DOCUMENT_BYTES = 5L * 1024 * 1024;
    public static final int DEFAULT_TRACE_RETENTION = 10_000;

    public RetrievalConfig {
        Objects.requireNonNull(chunking, "chunking");
        Objects.requireNonNull(lexical, "lexical");
        Objects.requireNonNull(dense, "dense");
        requirePositive(lexicalTimeout, "lexicalTimeout");
        requirePositive(denseTimeout, "denseTimeout");
        requirePositive(graphTimeout, "graphTimeout");
        if (maxDocumentBytes < 1) {
            throw new IllegalArgumentException(
                    "illegal maxDocumentBytes: " + maxDocumentBytes + ", must be >= 1");
        }
        if (traceRetention < 1) {
            throw new IllegalArgumentException(
                    "illegal traceRetention: " + traceRetention + ", must be >= 1");
        }
        Objects.requireNonNull(grounding, "grounding");
    }

    private static void requirePositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("illegal " + name + ": " + d + ", must be > 0");
        }
    }

    public static RetrievalConfig defaults() {
        return new RetrievalConfig(
                ChunkingConfig.DEFAULTS,
                LexicalConfig.DEFAULTS,
                DenseOptions.defaults(),
                DEFAULT_SIGNAL_TIMEOUT,
                DEFAULT_SIGNAL_TIMEOUT,
                DEFAULT_SIGNAL_TIMEOUT,
                DEFAULT_MAX_DOCUMENT_BYTES,
                DEFAULT_TRACE_RETENTION,
                Grounding.Thresholds.DEFAULTS);
    }

    public RetrievalConfig withTimeouts(Duration lexical, Duration dense, Duration graph) {
        return new RetrievalConfig(
                chunking,
                this.lexical,
                this.dense,
                lexical,
                dense,
                graph,
                maxDocumentBytes,
                traceRetention,
                grounding);
    }

    public RetrievalConfig withChunking(ChunkingConfig newChunking) {
        return new RetrievalConfig(
                newChunking,
                lexical,
                dense,
                lexicalTimeout,
                denseTimeout,
                graphTimeout,
                maxDocumentBytes,
                traceRetention,
                grounding);
    }

    public RetrievalConfig withMaxDocumentBytes(long bytes) {
        return new RetrievalConfig(
                chunking,
                lexical,
                dense,
                lexicalTimeout,
                denseTimeout,
                graphTimeout,
                bytes,
                traceRetention,
                grounding);
    }

    public RetrievalConfig withTraceRetention(int retention) {
        return new RetrievalConfig(
                chunking,
                lexical,
                dense,
                lexicalTimeout,
                denseTimeout,
                graphTimeout,
                maxDocumentBytes,
                retention,
                grounding);
    }
}
