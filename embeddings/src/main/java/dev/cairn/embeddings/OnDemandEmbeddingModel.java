package dev.cairn.embeddings;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A model that loads on its first pass or token count, for commands that open Cairn's components
 * and may never embed (an export, forgetting a user): loading the encoder costs seconds and
 * hundreds of megabytes that such a command would spend for nothing. Its {@link #id()} is known up
 * front, as the components need it to open (which stored vectors are current); the loaded model
 * must carry the same id. Thread-safe: concurrent first uses load once.
 */
public final class OnDemandEmbeddingModel implements EmbeddingModel {

    private final String id;
    private final Supplier<EmbeddingModel> loader;
    private final TokenCounter tokens = new OnDemandTokenCounter();
    private final Object lock = new Object();
    private volatile EmbeddingModel loaded;
    private boolean closed;

    OnDemandEmbeddingModel(String id, Supplier<EmbeddingModel> loader) {
        this.id = Objects.requireNonNull(id, "id");
        this.loader = Objects.requireNonNull(loader, "loader");
    }

    /** Whether the model has been loaded. */
    public boolean isLoaded() {
        return loaded != null;
    }

    private EmbeddingModel model() {
        EmbeddingModel model = loaded;
        if (model != null) {
            return model;
        }
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("model " + id + " is closed");
            }
            if (loaded == null) {
                EmbeddingModel fresh = loader.get();
                if (!id.equals(fresh.id())) {
                    fresh.close();
                    throw new IllegalStateException(
                            "the model loaded is " + fresh.id() + ", expected " + id);
                }
                loaded = fresh;
            }
            return loaded;
        }
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String exactId() {
        return model().exactId();
    }

    @Override
    public String precision() {
        return model().precision();
    }

    @Override
    public int dimensions() {
        return model().dimensions();
    }

    @Override
    public int maxTokens() {
        return model().maxTokens();
    }

    @Override
    public List<float[]> embedQueries(List<String> texts) {
        return model().embedQueries(texts);
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return model().embedDocuments(texts);
    }

    /** A counter that loads the model on its first count, so holding it costs nothing. */
    @Override
    public TokenCounter tokenCounter() {
        return tokens;
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            if (loaded != null) {
                loaded.close();
            }
        }
    }

    private final class OnDemandTokenCounter implements TokenCounter {

        @Override
        public int count(String text) {
            return model().tokenCounter().count(text);
        }

        @Override
        public String truncate(String text, int maxTokens) {
            return model().tokenCounter().truncate(text, maxTokens);
        }

        @Override
        public boolean additiveAtWhitespace() {
            return model().tokenCounter().additiveAtWhitespace();
        }
    }
}
