package dev.cairn.embeddings;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real decorator that counts the texts reaching the model it wraps (queries and documents).
 * Thread-safe. Shared with other modules' tests through this module's test jar.
 */
public final class CountingEmbeddingModel implements EmbeddingModel {

    private final EmbeddingModel model;
    private final AtomicInteger embedded = new AtomicInteger();

    public CountingEmbeddingModel(EmbeddingModel model) {
        this.model = model;
    }

    public int embedded() {
        return embedded.get();
    }

    @Override
    public String id() {
        return model.id();
    }

    @Override
    public String exactId() {
        return model.exactId();
    }

    @Override
    public String precision() {
        return model.precision();
    }

    @Override
    public int dimensions() {
        return model.dimensions();
    }

    @Override
    public int maxTokens() {
        return model.maxTokens();
    }

    @Override
    public List<float[]> embedQueries(List<String> texts) {
        embedded.addAndGet(texts.size());
        return model.embedQueries(texts);
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        embedded.addAndGet(texts.size());
        return model.embedDocuments(texts);
    }

    @Override
    public TokenCounter tokenCounter() {
        return model.tokenCounter();
    }

    /** Leaves the shared model open. */
    @Override
    public void close() {}
}
