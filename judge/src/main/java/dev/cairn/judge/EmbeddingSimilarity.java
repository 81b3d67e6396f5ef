package dev.cairn.judge;

import dev.cairn.embeddings.EmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Cosine of L2-normalised document embeddings; see {@link SimilarityFunction#embedding}. As
 * thread-safe as its model.
 */
final class EmbeddingSimilarity implements SimilarityFunction {

    private final EmbeddingModel model;

    EmbeddingSimilarity(EmbeddingModel model) {
        this.model = Objects.requireNonNull(model, "model");
    }

    @Override
    public String name() {
        return "embedding-" + model.id();
    }

    @Override
    public double[][] similarities(List<String> claims, List<String> passages) {
        if (claims.isEmpty() || passages.isEmpty()) {
            return new double[claims.size()][passages.size()];
        }
        List<String> all = new ArrayList<>(claims.size() + passages.size());
        all.addAll(claims);
        all.addAll(passages);
        List<float[]> vectors = model.embedDocuments(all);
        double[][] out = new double[claims.size()][passages.size()];
        for (int i = 0; i < claims.size(); i++) {
            float[] c = vectors.get(i);
            for (int j = 0; j < passages.size(); j++) {
                float[] p = vectors.get(claims.size() + j);
                double dot = 0;
                for (int k = 0; k < c.length; k++) {
                    dot += (double) c[k] * p[k];
                }
                out[i][j] = Math.max(0.0, Math.min(1.0, dot));
            }
        }
        return out;
    }
}
