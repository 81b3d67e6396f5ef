package dev.cairn.retrieval.feedback;

import java.util.Objects;

/**
 * How to train an adaptation from a namespace's judgments.
 *
 * @param holdOut the share of judged queries held back to compare the new ranking with the current
 *     one, in (0, 1): half of it by document, half by query ({@link JudgmentSplit})
 * @param priorWeight the weight of the judged-relevant prior that goes with the adapter ({@link
 *     JudgedPrior}), >= 0; 0 trains without one
 * @param trainer the training settings
 * @param learnedFusion whether to learn a fusion ({@link LearnedFusion}) where the subject has one
 *     to learn (retrieve's documents; recall has none); false for an ablation
 */
public record TuneOptions(
        double holdOut,
        double priorWeight,
        QueryAdapterTrainer.Config trainer,
        boolean learnedFusion) {

    /** Default share held back. */
    public static final double DEFAULT_HOLD_OUT = 0.2;

    /**
     * Default weight of the judged-relevant prior: a document one training query judged relevant
     * gains 0.15 / 61, about a seventh of a signal's first place under RRF. Chosen with the learned
     * fusion on a document-disjoint split of SciFact train (docs/retrieval.md, "Learned fusion"):
     * the largest of 0.1 / 0.2 / 0.3 / 0.5 that kept the queries about never-judged documents
     * within 0.005 (about one standard error) of the smallest's, 0.7777 / 0.7759 / 0.7756 / 0.7714,
     * while those about judged ones rose 0.7765 / 0.7928 / 0.8063 / 0.8346. Without the learned
     * fusion the prior costs the others more (0.2: 0.021 in a replay), since every judged document
     * that a signal returns rises, relevant to this query or not; 0.1 was the default then.
     */
    public static final double DEFAULT_PRIOR_WEIGHT = 0.3;

    public static final TuneOptions DEFAULTS =
            new TuneOptions(
                    DEFAULT_HOLD_OUT,
                    DEFAULT_PRIOR_WEIGHT,
                    QueryAdapterTrainer.Config.DEFAULTS,
                    true);

    /**
     * Default weight of recall's judged-relevant prior, which multiplies a judged memory's
     * relevance by {@code 1 + weight n / (n + 1)} (recall has no RRF constant to divide by, so the
     * same number means more there): a memory one training question judged relevant is 1% more
     * relevant, never more than 2%. In a conversation the memories near the top are within a few
     * percent of each other, and judged turns crowd out the evidence of questions nobody judged:
     * chosen on LoCoMo's tuning half (docs/memory.md, "Learning from judgments"), where 0.1 cost
     * those questions' held-back nDCG@10 0.01 to 0.11 per conversation, 0.05 cost their recall@10
     * 0.005, and 0.02 left it as it was while the judged ones gained.
     */
    public static final double DEFAULT_MEMORY_PRIOR_WEIGHT = 0.02;

    /** The defaults for recall's adaptation: {@link #DEFAULTS} with its own prior weight. */
    public static final TuneOptions MEMORY_DEFAULTS =
            new TuneOptions(
                    DEFAULT_HOLD_OUT,
                    DEFAULT_MEMORY_PRIOR_WEIGHT,
                    QueryAdapterTrainer.Config.DEFAULTS,
                    true);

    public TuneOptions {
        if (!(holdOut > 0 && holdOut < 1)) {
            throw new IllegalArgumentException(
                    "illegal holdOut: " + holdOut + ", must be in (0, 1)");
        }
        if (!(priorWeight >= 0) || Double.isInfinite(priorWeight)) {
            throw new IllegalArgumentException(
                    "illegal priorWeight: " + priorWeight + ", must be >= 0 and finite");
        }
        Objects.requireNonNull(trainer, "trainer");
    }

    public TuneOptions withHoldOut(double value) {
        return new TuneOptions(value, priorWeight, trainer, learnedFusion);
    }

    public TuneOptions withPriorWeight(double value) {
        return new TuneOptions(holdOut, value, trainer, learnedFusion);
    }

    public TuneOptions withTrainer(QueryAdapterTrainer.Config value) {
        return new TuneOptions(holdOut, priorWeight, value, learnedFusion);
    }

    public TuneOptions withLearnedFusion(boolean value) {
        return new TuneOptions(holdOut, priorWeight, trainer, value);
    }
}
