package dev.cairn.judge;

import java.util.Arrays;
import java.util.Objects;

/**
 * How the {@link Judge} turns what it measured about a claim into one verdict: either the
 * thresholds of {@link JudgeConfig} ({@link #THRESHOLDS}) or a multinomial logistic regression over
 * {@link ClaimFeatures} (best-sentence alignment, each contradiction cue's strength, what the
 * thresholds decide), fitted offline and shipped as fixed coefficients. Immutable and thread-safe.
 */
public final class VerdictModel {

    /** A claim's verdict, in the order of the model's weight rows. */
    public enum Verdict {
        SUPPORT,
        CONTRADICT,
        NOT_ENOUGH_INFO
    }

    /** No model: each verdict has its own threshold ({@link JudgeConfig}). */
    public static final VerdictModel THRESHOLDS = new VerdictModel("thresholds", new double[0][]);

    private final String name;
    private final double[][] weights;

    private VerdictModel(String name, double[][] weights) {
        this.name = name;
        this.weights = weights;
    }

    /**
     * A learned model.
     *
     * @param name what it was fitted on, shown in {@link JudgeConfig}'s string form
     * @param weights one row per {@link Verdict}, each the intercept followed by one weight per
     *     {@link #features() feature}
     * @throws IllegalArgumentException when the shape does not match the features
     */
    public static VerdictModel learned(String name, double[][] weights) {
        Objects.requireNonNull(name, "name");
        if (weights.length != Verdict.values().length) {
            throw new IllegalArgumentException(
                    "illegal weights: "
                            + weights.length
                            + " rows, must be one per verdict ("
                            + Verdict.values().length
                            + ")");
        }
        double[][] copy = new double[weights.length][];
        for (int v = 0; v < weights.length; v++) {
            if (weights[v].length != ClaimFeatures.NAMES.size() + 1) {
                throw new IllegalArgumentException(
                        "illegal weights: row "
                                + v
                                + " has "
                                + weights[v].length
                                + " values, must be the intercept and "
                                + ClaimFeatures.NAMES.size()
                                + " feature weights");
            }
            copy[v] = weights[v].clone();
        }
        return new VerdictModel(name, copy);
    }

    /** The names of the features a learned model weighs, in weight order (after the intercept). */
    public static java.util.List<String> features() {
        return ClaimFeatures.NAMES;
    }

    /** Whether this is a learned model rather than {@link #THRESHOLDS}. */
    public boolean learned() {
        return weights.length > 0;
    }

    /** Probability of each {@link Verdict} for one claim's features (softmax of the scores). */
    double[] probabilities(double[] features) {
        return softmax(weights, features);
    }

    /**
     * Softmax of each row's score {@code row[0] + sum row[f + 1] * features[f]}: the probabilities
     * of a multinomial logistic regression, here and where one is fitted.
     */
    static double[] softmax(double[][] weights, double[] features) {
        double[] p = new double[weights.length];
        double max = Double.NEGATIVE_INFINITY;
        for (int v = 0; v < weights.length; v++) {
            double z = weights[v][0];
            for (int f = 0; f < features.length; f++) {
                z += weights[v][f + 1] * features[f];
            }
            p[v] = z;
            max = Math.max(max, z);
        }
        double sum = 0;
        for (int v = 0; v < p.length; v++) {
            p[v] = Math.exp(p[v] - max);
            sum += p[v];
        }
        for (int v = 0; v < p.length; v++) {
            p[v] /= sum;
        }
        return p;
    }

    /** The most probable verdict. */
    Verdict decide(double[] features) {
        double[] p = probabilities(features);
        int best = 0;
        for (int v = 1; v < p.length; v++) {
            if (p[v] > p[best]) {
                best = v;
            }
        }
        return Verdict.values()[best];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VerdictModel m
                && m.name.equals(name)
                && Arrays.deepEquals(m.weights, weights);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + Arrays.deepHashCode(weights);
    }

    @Override
    public String toString() {
        return name;
    }
}
