package dev.cairn.judge;

import java.util.List;

/**
 * What a {@link VerdictModel} reads about one claim: how well its best evidence sentence aligns
 * with it and how strongly each contradiction cue fires on a sentence about the same thing. Every
 * feature is in [0, 1]. Stateless and thread-safe.
 */
final class ClaimFeatures {

    private ClaimFeatures() {}

    /** The features' names, in vector order; {@link VerdictModel}'s weights follow this order. */
    static final List<String> NAMES =
            List.of(
                    "best score",
                    "best similarity",
                    "best overlap",
                    "margin to the second best score",
                    "best score without a conflict",
                    "best sentence in conflict",
                    "negation",
                    "antonym",
                    "quantity",
                    "direction",
                    "effect denial",
                    "quantifier",
                    "claim negated",
                    "claim states a direction",
                    "claim quantity not in evidence",
                    "thresholds contradict",
                    "thresholds support",
                    "sentences a cue fires on",
                    "best similarity of a sentence a cue fires on");

    /**
     * The features of one claim.
     *
     * @param claim the claim, analysed
     * @param compared the claim against every evidence sentence
     * @param cited for each sentence, whether the claim cites its evidence item: the alignment
     *     features read cited sentences only, as support does; the cues read every sentence, as
     *     contradiction does
     * @param contextThreshold least overlap for a cue to count (as {@link
     *     JudgeConfig#contextThreshold()})
     * @param quantityNotInEvidence a quantity of the claim is stated in no cited evidence item
     * @param thresholdsContradict the threshold rule finds a contradicting item
     * @param thresholdsSupport the threshold rule finds a supporting cited item
     */
    static double[] of(
            Statement claim,
            Comparison[] compared,
            boolean[] cited,
            double contextThreshold,
            boolean quantityNotInEvidence,
            boolean thresholdsContradict,
            boolean thresholdsSupport) {
        double best = 0;
        double second = 0;
        double bestSimilarity = 0;
        double bestOverlap = 0;
        double clean = 0;
        Comparison top = null;
        double[] cue = new double[6];
        int conflicting = 0;
        double conflictSimilarity = 0;
        for (int s = 0; s < compared.length; s++) {
            Comparison c = compared[s];
            boolean conflict = c.cueConflict() || !c.quantityConflict().isEmpty();
            if (cited[s]) {
                if (c.score() > best) {
                    second = best;
                    best = c.score();
                    top = c;
                } else {
                    second = Math.max(second, c.score());
                }
                bestSimilarity = Math.max(bestSimilarity, c.similarity());
                bestOverlap = Math.max(bestOverlap, c.overlap());
                if (!conflict) {
                    clean = Math.max(clean, c.score());
                }
            }
            if (c.overlap() < contextThreshold) {
                continue;
            }
            boolean[] fires = {
                c.polarityMismatch() && c.negationMismatch(),
                c.polarityMismatch() && !c.negationMismatch(),
                !c.quantityConflict().isEmpty(),
                !c.direction().isEmpty(),
                !c.effectConflict().isEmpty(),
                !c.quantifierConflict().isEmpty()
            };
            boolean any = false;
            for (int k = 0; k < fires.length; k++) {
                if (fires[k]) {
                    cue[k] = Math.max(cue[k], c.score());
                    any = true;
                }
            }
            if (any) {
                conflicting++;
                conflictSimilarity = Math.max(conflictSimilarity, c.similarity());
            }
        }
        Effect effect = claim.effect();
        boolean claimNegated =
                claim.clauses().stream().anyMatch(cl -> !cl.negationScopes().isEmpty());
        boolean claimDirection =
                effect.stated().containsKey(Effect.Direction.UP)
                        || effect.stated().containsKey(Effect.Direction.DOWN);
        return new double[] {
            best,
            bestSimilarity,
            bestOverlap,
            best - second,
            clean,
            top != null && (top.cueConflict() || !top.quantityConflict().isEmpty()) ? 1 : 0,
            cue[0],
            cue[1],
            cue[2],
            cue[3],
            cue[4],
            cue[5],
            claimNegated ? 1 : 0,
            claimDirection ? 1 : 0,
            quantityNotInEvidence ? 1 : 0,
            thresholdsContradict ? 1 : 0,
            thresholdsSupport ? 1 : 0,
            // how many sentences on the claim's subject disagree with it, saturating at four
            Math.min(conflicting, 4) / 4.0,
            conflictSimilarity
        };
    }
}
