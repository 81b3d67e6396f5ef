package dev.cairn.retrieval.fusion;

import java.util.List;
import java.util.Map;

/**
 * Weighted RRF whose lexical weight follows how decisive BM25 is on this query: the relative gap
 * between its first and second score, {@code (s1 - s2) / s1}, divided by {@link #TYPICAL_GAP} and
 * kept within [{@link #MIN_FACTOR}, {@link #MAX_FACTOR}], multiplies the lexical weight. A query
 * whose best lexical match stands out (a rare term, an identifier) keeps or gains BM25's vote; a
 * query where BM25 scores many candidates alike (common words only) leaves the ranking to the other
 * signals. Rank fusion alone cannot tell these apart: it gives BM25's first place the same vote
 * whether it won by a mile or by a hair.
 *
 * <p>Why BM25's gap and not the dense one: on SciFact train the BM25 gap was the feature that
 * predicted which signal ranked a query better (correlation +0.21 with nDCG@10 bm25 minus dense,
 * against +0.06 for the dense gap and -0.01 for top-10 overlap); see docs/retrieval.md.
 *
 * <p>Immutable and thread-safe.
 */
final class AdaptiveRrf implements Fusion {

    /** About BM25's mean relative first-to-second gap on SciFact train: the neutral point. */
    static final double TYPICAL_GAP = 0.32;

    static final double MIN_FACTOR = 0.25;
    static final double MAX_FACTOR = 2.5;

    private final WeightedRrf rrf;

    AdaptiveRrf(int k) {
        this.rrf = new WeightedRrf(k);
    }

    @Override
    public List<FusedCandidate> fuse(Map<Signal, List<ScoredId>> rankings, SignalWeights weights) {
        double factor = lexicalFactor(rankings.getOrDefault(Signal.LEXICAL, List.of()));
        if (factor == 1) {
            return rrf.fuse(rankings, weights);
        }
        return rrf.fuse(rankings, weights.scaled(Signal.LEXICAL, factor));
    }

    /**
     * What the lexical weight is multiplied by for this ranking; 1 when it says nothing (fewer than
     * two hits, or scores that are not positive).
     */
    static double lexicalFactor(List<ScoredId> lexical) {
        return lexical.size() < 2
                ? 1
                : lexicalFactor(lexical.get(0).score(), lexical.get(1).score());
    }

    /** The factor for BM25's two best scores; 1 when the first is not positive. */
    static double lexicalFactor(double first, double second) {
        if (!(first > 0)) {
            return 1;
        }
        double gap = (first - Math.max(0, second)) / first;
        return Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, gap / TYPICAL_GAP));
    }

    @Override
    public String toString() {
        return "AdaptiveRrf[" + rrf + "]";
    }
}
