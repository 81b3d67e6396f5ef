package dev.cairn.judge;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.TokenCounter;
import java.util.List;

/**
 * A small real embedding model for tests: feature hashing of stemmed content words into {@link
 * #DIMENSIONS} buckets, L2-normalised. Deterministic and thread-safe.
 */
final class HashingEmbeddingModel implements EmbeddingModel {

    static final int DIMENSIONS = 256;

    @Override
    public String id() {
        return "hashing-" + DIMENSIONS;
    }

    @Override
    public int dimensions() {
        return DIMENSIONS;
    }

    @Override
    public int maxTokens() {
        return 512;
    }

    @Override
    public List<float[]> embedQueries(List<String> texts) {
        return texts.stream().map(HashingEmbeddingModel::embed).toList();
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return texts.stream().map(HashingEmbeddingModel::embed).toList();
    }

    private static float[] embed(String text) {
        float[] v = new float[DIMENSIONS];
        for (String t : Text.contentStemList(text)) {
            v[Math.floorMod(t.hashCode(), DIMENSIONS)] += 1f;
        }
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        if (norm > 0) {
            float inv = (float) (1 / Math.sqrt(norm));
            for (int i = 0; i < v.length; i++) {
                v[i] *= inv;
            }
        }
        return v;
    }

    @Override
    public TokenCounter tokenCounter() {
        return new TokenCounter() {
            @Override
            public int count(String text) {
                return Text.tokens(text).size();
            }

            @Override
            public String truncate(String text, int maxTokens) {
                return text;
            }
        };
    }

    @Override
    public void close() {}
}
