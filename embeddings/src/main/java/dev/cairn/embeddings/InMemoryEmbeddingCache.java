package dev.cairn.embeddings;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link EmbeddingCache} in a {@link ConcurrentHashMap}. Thread-safe; copies vectors in and out.
 */
final class InMemoryEmbeddingCache implements EmbeddingCache {

    private final Map<Key, float[]> vectors = new ConcurrentHashMap<>();

    @Override
    public Map<Key, float[]> getAll(Collection<Key> keys) {
        Map<Key, float[]> found = new HashMap<>();
        for (Key key : keys) {
            float[] v = vectors.get(key);
            if (v != null) {
                found.put(key, v.clone());
            }
        }
        return found;
    }

    @Override
    public void putAll(Map<Key, float[]> entries) {
        entries.forEach((k, v) -> vectors.put(k, v.clone()));
    }

    @Override
    public long size() {
        return vectors.size();
    }

    @Override
    public void close() {
        vectors.clear();
    }
}
