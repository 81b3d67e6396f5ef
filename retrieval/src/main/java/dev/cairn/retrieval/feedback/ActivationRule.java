package dev.cairn.retrieval.feedback;

/**
 * When a newly trained adaptation replaces the namespace's ranking: when it is better on all the
 * held-back queries and not worse, beyond noise, on those whose relevant documents no training
 * query judged (the document-disjoint part of {@link JudgmentSplit}). The second condition is what
 * a query hold-out alone could not check: an adaptation that only learned "these documents were
 * relevant before" wins on the seen documents and loses on the unseen ones (issue 42: on SciFact
 * test, +0.09 overall but -0.006 on the 104 queries whose documents were never judged).
 *
 * <p>Noise: the unseen-document queries' mean nDCG@10 may fall by at most {@link #noiseBand}, one
 * standard error of the mean per-query difference, capped at {@link #MAX_NOISE_BAND} so that a
 * small, noisy hold-out cannot excuse a clear loss. Stateless.
 */
public final class ActivationRule {

    /**
     * The most the unseen-document queries' mean nDCG@10 may fall and still count as noise. 0.01:
     * the spread of untuned hybrid nDCG@10 between SciFact train's two halves by query id is about
     * 0.04 (0.7762 vs 0.7389, docs/retrieval.md), the standard error of a 100-query mean about
     * 0.02; half of that is the largest loss taken as "not worse".
     */
    public static final double MAX_NOISE_BAND = 0.01;

    private ActivationRule() {}

    /** How far {@code unseen}'s adapted mean may lie below its baseline and count as not worse. */
    public static double noiseBand(HeldBackScore unseen) {
        return Math.min(MAX_NOISE_BAND, unseen.standardError());
    }

    /**
     * Whether an adaptation scoring {@code all} on every held-back query and {@code unseen} on the
     * unseen-document ones is activated: better on all, and not worse than {@link #noiseBand} on
     * the unseen documents (with none held back, that check has nothing to say and passes).
     */
    public static boolean activates(HeldBackScore all, HeldBackScore unseen) {
        return all.adaptedNdcg10() > all.baselineNdcg10() && unseen.gain() >= -noiseBand(unseen);
    }
}
