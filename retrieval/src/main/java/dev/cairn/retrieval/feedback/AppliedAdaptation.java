package dev.cairn.retrieval.feedback;

/**
 * What an answer says of the adaptation it was ranked under: its version (0: none was active) and
 * the factor on the dense weight and the prior's weight that went with it.
 *
 * @param version the active version applied, 0 when none
 * @param denseWeight the factor on the dense signal's weight (1 when none)
 * @param priorWeight the judged-relevant prior's weight (0 when none)
 */
public record AppliedAdaptation(int version, double denseWeight, double priorWeight) {

    /** No adaptation was applied. */
    public static final AppliedAdaptation NONE = new AppliedAdaptation(0, 1, 0);

    public AppliedAdaptation {
        if (version < 0) {
            throw new IllegalArgumentException("illegal version: " + version + ", must be >= 0");
        }
    }

    /**
     * What an answer ranked under {@code version} (0: none) with this dense weight factor and prior
     * says of it: {@link #NONE} when no version applied.
     */
    public static AppliedAdaptation of(int version, double denseWeight, JudgedPrior prior) {
        return version == 0 ? NONE : new AppliedAdaptation(version, denseWeight, prior.weight());
    }

    /** Whether an adaptation was applied. */
    public boolean applied() {
        return version > 0;
    }
}
