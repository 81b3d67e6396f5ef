package dev.cairn.embeddings;

import java.util.List;

/**
 * A sentence encoder: text to L2-normalised vectors. Implementations are thread-safe unless their
 * Javadoc says otherwise.
 */
public interface EmbeddingModel extends AutoCloseable {

    /** Stable identifier of the model and its weights, e.g. {@code bge-small-en-v1.5}. */
    String id();

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
