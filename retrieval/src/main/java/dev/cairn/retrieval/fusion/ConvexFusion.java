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
            if (list == null || list.isEmpty() || weights.weight(s) == 0) {
                continue;
            }
            weightSum += weights.weight(s);
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (ScoredId e : list) {
                min = Math.min(min, e.score());
                max = Math.max(max, e.score());
            }
            double low =
                    normalization == Normalization.MIN_MAX
                            ? min
                            : Math.min(min, s.theoreticalMin());
            bounds.put(s, new double[] {low, max});
        }
        for (Candidates.Acc a : c.all()) {
            double sum = 0;
            for (Map.Entry<Signal, Double> e : a.scores.entrySet()) { // Signal order
                double[] b = bounds.get(e.getKey());
                double norm = b[1] > b[0] ? (e.getValue() - b[0]) / (b[1] - b[0]) : 1.0;
                sum += weights.weight(e.getKey()) * norm;
            }
            a.fused = weightSum == 0 ? 0 : sum / weightSum;
        }
        return c.sorted();
    }

    @Override
    public String toString() {
        return "ConvexFusion[" + normalization + "]";
    }
}
