package dev.cairn.embeddings;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real decorator that counts the texts reaching the model it wraps (queries and documents), and
 * may give it another id (as an earlier version of Cairn named the same vectors). Thread-safe.
 * Shared with other modules' tests through this module's test jar.
 */
public final class CountingEmbeddingModel implements EmbeddingModel {

    private final EmbeddingModel model;
    private final String id;
    private final String exactId;
    private final AtomicInteger embedded = new AtomicInteger();
    private final AtomicInteger closes = new AtomicInteger();

    public CountingEmbeddingModel(EmbeddingModel model) {
        this.model = model;
        this.id = model.id();
        this.exactId = model.exactId();
    }

    /** {@code model} under {@code id} (its exact id too). */
    public CountingEmbeddingModel(EmbeddingModel model, String id) {
        this.model = model;
        this.id = id;
        this.exactId = id;
    }

    public int embedded() {
        return embedded.get();
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String exactId() {
        return exactId;
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

    /** How many times {@link #close()} was called. */
    public int closes() {
        return closes.get();
    }

    /** Counts the call and leaves the shared model open. */
    @Override
    public void close() {
        closes.incrementAndGet();
    }
}
