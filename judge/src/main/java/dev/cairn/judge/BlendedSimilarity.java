package dev.cairn.judge;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Weighted mean of two similarity functions; see {@link SimilarityFunction#blend}. As thread-safe
 * as its parts.
 */
final class BlendedSimilarity implements SimilarityFunction {

    private final SimilarityFunction first;
    private final SimilarityFunction second;
    private final double firstWeight;

    BlendedSimilarity(SimilarityFunction first, SimilarityFunction second, double firstWeight) {
        this.first = Objects.requireNonNull(first, "first");
        this.second = Objects.requireNonNull(second, "second");
        if (!(firstWeight >= 0.0 && firstWeight <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal firstWeight: " + firstWeight + ", must be in [0, 1]");
        }
        this.firstWeight = firstWeight;
    }

    @Override
    public String name() {
        return String.format(
                Locale.ROOT,
                "blend-%.2f-%s-%.2f-%s",
                firstWeight,
                first.name(),
                1 - firstWeight,
                second.name());
    }

    @Override
    public double[][] similarities(List<String> claims, List<String> passages) {
        double[][] a = first.similarities(claims, passages);
        double[][] b = second.similarities(claims, passages);
        double[][] out = new double[claims.size()][passages.size()];
        for (int i = 0; i < out.length; i++) {
            for (int j = 0; j < out[i].length; j++) {
                double v = firstWeight * a[i][j] + (1 - firstWeight) * b[i][j];
                out[i][j] = Math.max(0.0, Math.min(1.0, v));
            }
        }
        return out;
    }
}
