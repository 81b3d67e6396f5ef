package dev.cairn.retrieval.feedback;

/**
 * What an answer says of the adaptation it was ranked under: its version (0: none was active), the
 * factor on the dense weight and the prior's weight that went with it, and whether its learned
 * fusion ranked the answer.
 *
 * @param version the active version applied, 0 when none
 * @param denseWeight the factor on the dense signal's weight (1 when none)
 * @param priorWeight the judged-relevant prior's weight (0 when none)
 * @param learnedFusion whether the version's {@link LearnedFusion} scored the candidates (false
 *     when it has none, the request asked for another fusion or one signal, a signal did not answer
 *     in time, or the entity graph contributed to the ranking)
 */
public record AppliedAdaptation(
        int version, double denseWeight, double priorWeight, boolean learnedFusion) {

    /** No adaptation was applied. */
    public static final AppliedAdaptation NONE = new AppliedAdaptation(0, 1, 0, false);

    public AppliedAdaptation {
        if (version < 0) {
            throw new IllegalArgumentException("illegal version: " + version + ", must be >= 0");
        }
    }

    /**
     * What an answer ranked under {@code version} (0: none) with this dense weight factor and
     * prior, and with its learned fusion or not, says of it: {@link #NONE} when no version applied.
     */
    public static AppliedAdaptation of(
            int version, double denseWeight, JudgedPrior prior, boolean learnedFusion) {
        return version == 0
                ? NONE
                : new AppliedAdaptation(version, denseWeight, prior.weight(), learnedFusion);
    }

    /** Whether an adaptation was applied. */
    public boolean applied() {
        return version > 0;
    }
}
