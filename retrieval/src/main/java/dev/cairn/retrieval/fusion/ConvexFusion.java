package dev.cairn.retrieval.fusion;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Convex combination of normalised scores; see {@link Fusion#convex}. Immutable. */
final class ConvexFusion implements Fusion {

    private final Normalization normalization;

    ConvexFusion(Normalization normalization) {
        if (normalization == null) {
            throw new IllegalArgumentException("illegal normalization: null");
        }
        this.normalization = normalization;
    }

    @Override
    public List<FusedCandidate> fuse(Map<Signal, List<ScoredId>> rankings, SignalWeights weights) {
        Candidates c = Candidates.collect(rankings, weights);
        EnumMap<Signal, double[]> bounds = new EnumMap<>(Signal.class); // {low, high}
        double weightSum = 0;
        for (Signal s : Signal.values()) {
            List<ScoredId> list = rankings.get(s);
            if (list == null || weights.weight(s) == 0) {
                continue;
            }
            // A signal that answered with nothing still counts: it gave every candidate 0.
            weightSum += weights.weight(s);
            bounds.put(s, bounds(s, list));
        }
        for (Candidates.Acc a : c.all()) {
            double sum = 0;
            for (Map.Entry<Signal, Double> e : a.scores.entrySet()) { // Signal order
                sum += weights.weight(e.getKey()) * normalise(e.getValue(), bounds.get(e.getKey()));
            }
            a.fused = weightSum == 0 ? 0 : sum / weightSum;
        }
        return c.sorted();
    }

    /** The {low, high} a signal's scores are mapped from. */
    private double[] bounds(Signal s, List<ScoredId> list) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (ScoredId e : list) {
            min = Math.min(min, e.score());
            max = Math.max(max, e.score());
        }
        return switch (normalization) {
            case MIN_MAX -> new double[] {min, max};
            case THEORETICAL_MIN_MAX -> new double[] {Math.min(min, s.theoreticalMin()), max};
            case MAX_SCALED ->
                    new double[] {
                        0,
                        Double.isFinite(s.theoreticalMax())
                                ? s.theoreticalMax()
                                : (max > 0 ? max : 1.0)
                    };
        };
    }

    private double normalise(double score, double[] bounds) {
        if (normalization == Normalization.MAX_SCALED) {
            return Math.max(0.0, score) / bounds[1];
        }
        return bounds[1] > bounds[0] ? (score - bounds[0]) / (bounds[1] - bounds[0]) : 1.0;
    }

    @Override
    public String toString() {
        return "ConvexFusion[" + normalization + "]";
    }
}
