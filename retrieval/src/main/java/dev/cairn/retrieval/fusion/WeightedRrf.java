package dev.cairn.retrieval.fusion;

import java.util.List;
import java.util.Map;

/** Weighted reciprocal-rank fusion; see {@link Fusion#weightedRrf(int)}. Immutable. */
final class WeightedRrf implements Fusion {

    private final int k;

    WeightedRrf(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("illegal k: " + k + ", must be >= 1");
        }
        this.k = k;
    }

    @Override
    public List<FusedCandidate> fuse(Map<Signal, List<ScoredId>> rankings, SignalWeights weights) {
        Candidates c = Candidates.collect(rankings, weights);
        for (Candidates.Acc a : c.all()) {
            double sum = 0;
            for (Map.Entry<Signal, Integer> e : a.ranks.entrySet()) { // Signal order
                sum += weights.weight(e.getKey()) / (k + e.getValue());
            }
            a.fused = sum;
        }
        return c.sorted();
    }

    @Override
    public String toString() {
        return "WeightedRrf[k=" + k + "]";
    }
}
