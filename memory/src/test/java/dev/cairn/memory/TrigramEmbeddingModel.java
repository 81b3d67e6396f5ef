package dev.cairn.memory;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.TokenCounter;
import java.util.List;
import java.util.Locale;

/**
 * A small real embedding model for fast tests: hashed character trigrams of the lower-cased text
 * (with word boundaries), L2-normalised, so texts sharing many trigrams have a high cosine. No
 * semantics beyond spelling. Thread-safe.
 */
public final class TrigramEmbeddingModel implements EmbeddingModel {

    private final int dimensions;
    private final TokenCounter counter = new SimpleTokenCounter();

    public TrigramEmbeddingModel(int dimensions) {
        this.dimensions = dimensions;
    }

    @Override
    public String id() {
        return "trigram-" + dimensions;
    }

    @Override
    public int dimensions() {
        return dimensions;
    }

    @Override
    public int maxTokens() {
        return 512;
    }

    @Override
    public List<float[]> embedQueries(List<String> texts) {
        return texts.stream().map(this::embed).toList();
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return texts.stream().map(this::embed).toList();
    }

    private float[] embed(String text) {
        float[] v = new float[dimensions];
        String s = " " + text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ") + " ";
        for (int i = 0; i + 3 <= s.length(); i++) {
            int h = s.substring(i, i + 3).hashCode();
            v[Math.floorMod(h, dimensions)] += 1f;
        }
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        if (norm == 0) {
            v[0] = 1f;
            return v;
        }
        float inv = (float) (1.0 / Math.sqrt(norm));
        for (int i = 0; i < v.length; i++) {
            v[i] *= inv;
        }
        return v;
    }

    @Override
    public TokenCounter tokenCounter() {
        return counter;
    }

    @Override
    public void close() {}
}
