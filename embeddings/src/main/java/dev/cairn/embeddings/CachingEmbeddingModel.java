package dev.cairn.embeddings;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Looks every text up in an {@link EmbeddingCache} first and sends only the misses, once each, to
 * the wrapped model. Queries and documents are cached apart ({@code <exactId>/query}, {@code
 * <exactId>/document}) since a model may embed them differently; keyed on the {@link
 * EmbeddingModel#exactId() exact id}, a float32 run never reads a bfloat16 run's vectors.
 *
 * <p>Thread-safe if the model and cache are. Two threads missing the same text at once may both
 * compute it; the vectors are equal, so the second write is harmless. Closing closes the model, not
 * the cache (the caller owns it).
 */
final class CachingEmbeddingModel implements EmbeddingModel {

    private final EmbeddingModel model;
    private final EmbeddingCache cache;

    CachingEmbeddingModel(EmbeddingModel model, EmbeddingCache cache) {
        if (model == null || cache == null) {
            throw new IllegalArgumentException("model and cache are required");
        }
        this.model = model;
        this.cache = cache;
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
        return embed(texts, model.exactId() + "/query", true);
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return embed(texts, model.exactId() + "/document", false);
    }

    private List<float[]> embed(List<String> texts, String namespace, boolean queries) {
        List<EmbeddingCache.Key> keys = new ArrayList<>(texts.size());
        for (String text : texts) {
            keys.add(EmbeddingCache.Key.of(namespace, text));
        }
        Map<EmbeddingCache.Key, float[]> found = new HashMap<>(cache.getAll(keys));
        Map<EmbeddingCache.Key, String> missing = new LinkedHashMap<>();
        for (int i = 0; i < texts.size(); i++) {
            if (!found.containsKey(keys.get(i))) {
                missing.putIfAbsent(keys.get(i), texts.get(i));
            }
        }
        if (!missing.isEmpty()) {
            List<String> todo = List.copyOf(missing.values());
            List<float[]> computed =
                    queries ? model.embedQueries(todo) : model.embedDocuments(todo);
            Map<EmbeddingCache.Key, float[]> fresh = new LinkedHashMap<>();
            int i = 0;
            for (EmbeddingCache.Key key : missing.keySet()) {
                fresh.put(key, computed.get(i++));
            }
            cache.putAll(fresh);
            found.putAll(fresh);
        }
        List<float[]> out = new ArrayList<>(texts.size());
        for (EmbeddingCache.Key key : keys) {
            out.add(found.get(key).clone());
        }
        return out;
    }

    @Override
    public TokenCounter tokenCounter() {
        return model.tokenCounter();
    }

    @Override
    public void close() {
        model.close();
    }

    @Override
    public String toString() {
        return "Cached[" + model + "]";
    }
}
