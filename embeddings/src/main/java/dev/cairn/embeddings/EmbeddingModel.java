package dev.cairn.embeddings;

import java.util.List;

/**
 * A sentence encoder: text to L2-normalised vectors. Implementations are thread-safe unless their
 * Javadoc says otherwise.
 */
public interface EmbeddingModel extends AutoCloseable {

    /**
     * The model and its vector space, e.g. {@code bge-small-en-v1.5}: what a stored vector records
     * and what decides whether it must be embedded again. Vectors under one id are interchangeable
     * whatever arithmetic computed them (the reduced precisions of {@link #precision()} pass the
     * quality gate against float32), so servers on different CPUs sharing one store agree on it.
     */
    String id();

    /**
     * {@link #id()} plus the arithmetic of the document passes when it changes their bits, e.g.
     * {@code bge-small-en-v1.5-bf16}: the key of a cache of exact vectors ({@link
     * EmbeddingModels#cached}), so vectors of one precision never answer for another's. Never
     * stored with a vector.
     */
    default String exactId() {
        return id();
    }

    /**
     * The arithmetic this process computes each kind of pass in, e.g. {@code documents bfloat16,
     * queries int8}: a detail of this server (its CPU and settings), reported by {@code GET
     * /health} and left out of {@link #id()}.
     */
    default String precision() {
        return "documents float32, queries float32";
    }

    /** Length of every vector this model returns. */
    int dimensions();

    /** Longest input in model tokens; longer inputs are truncated. */
    int maxTokens();

    /** Embeds search queries (a model may prefix them with its retrieval instruction). */
    List<float[]> embedQueries(List<String> texts);

    /** Embeds passages to be searched. */
    List<float[]> embedDocuments(List<String> texts);

    /** Embeds one query. */
    default float[] embedQuery(String text) {
        return embedQueries(List.of(text)).getFirst();
    }

    /** Counts tokens exactly as this model's tokenizer does. */
    TokenCounter tokenCounter();

    @Override
    void close();
}
