package dev.cairn.retrieval.fusion;

import java.util.List;
import java.util.Map;

/**
 * Fuses several signals' rankings into one. Implementations are immutable and thread-safe.
 *
 * <p>Inputs: per signal a ranked list (best first; rank = position + 1) of distinct ids with raw
 * scores. A signal with weight 0 (or none) is dropped as if it returned nothing. Output: every
 * candidate returned by a weighted signal, by fused score descending, then id ascending. The result
 * does not depend on the iteration order of {@code rankings}: signals are always combined in {@link
 * Signal} order.
 */
public interface Fusion {

    /**
     * Default RRF constant k (Cormack, Clarke and Buettcher, "Reciprocal Rank Fusion Outperforms
     * Condorcet and Individual Rank Learning Methods", SIGIR 2009).
     */
    int DEFAULT_K = 60;

    /**
     * Weighted reciprocal-rank fusion: {@code score(d) = sum_s w_s / (k + rank_s(d))}, over the
     * signals that returned {@code d} (Cormack et al., SIGIR 2009, with per-signal weights).
     *
     * @param k smoothing constant, {@code >= 1}
     */
    static Fusion weightedRrf(int k) {
        return new WeightedRrf(k);
    }

    /**
     * Weighted RRF whose lexical weight is scaled per query by how decisive BM25's ranking is (the
     * relative gap between its first two scores); see {@link AdaptiveRrf}.
     *
     * @param k smoothing constant, {@code >= 1}
     */
    static Fusion adaptiveRrf(int k) {
        return new AdaptiveRrf(k);
    }

    /**
     * What {@link #adaptiveRrf} multiplies the lexical weight by for a BM25 ranking whose two best
     * scores are {@code first} and {@code second} (1 when the first is not positive).
     */
    static double adaptiveLexicalFactor(double first, double second) {
        return AdaptiveRrf.lexicalFactor(first, second);
    }

    /** Weighted RRF with {@link #DEFAULT_K}. */
    static Fusion weightedRrf() {
        return weightedRrf(DEFAULT_K);
    }

    /**
     * Convex combination of normalised scores: {@code score(d) = sum_s w_s * norm_s(d) / sum_s
     * w_s}, with {@code norm_s(d) = 0} where signal {@code s} did not return {@code d} (Bruch et
     * al., TOIS 2023). The sum of weights runs over the weighted signals in {@code rankings}, an
     * empty ranking included (it answered, and gave every candidate 0); a signal absent from {@code
     * rankings} (not asked, or no answer in time) is left out.
     */
    static Fusion convex(Normalization normalization) {
        return new ConvexFusion(normalization);
    }

    /** Convex combination with {@link Normalization#DEFAULT}. */
    static Fusion convex() {
        return convex(Normalization.DEFAULT);
    }

    /**
     * Fuses {@code rankings} with {@code weights}.
     *
     * @throws IllegalArgumentException when a ranking repeats an id
     */
    List<FusedCandidate> fuse(Map<Signal, List<ScoredId>> rankings, SignalWeights weights);
}
