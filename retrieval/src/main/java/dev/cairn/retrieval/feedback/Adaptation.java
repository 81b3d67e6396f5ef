package dev.cairn.retrieval.feedback;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * One trained query adapter of a namespace and what its training found.
 *
 * @param version 1, 2, ... per namespace, in training order
 * @param state whether it is the one retrieve applies
 * @param replaces the version that was active when this one was activated, 0 when none; a rollback
 *     returns to it
 * @param adapter the learned map
 * @param denseWeight the factor on the dense signal's fusion weight that goes with it (1 leaves the
 *     weights as asked): an adapted dense signal earns more say in the hybrid ranking
 * @param prior the judged-relevant prior that goes with it ({@link JudgedPrior#NONE} for versions
 *     trained without one)
 * @param fusion the learned fusion that goes with it ({@link LearnedFusion#NONE} for versions
 *     trained without one, and for recall's)
 * @param report the held-back evaluation that decided its state
 * @param createdAt when it was trained
 */
public record Adaptation(
        int version,
        State state,
        int replaces,
        QueryAdapter adapter,
        double denseWeight,
        JudgedPrior prior,
        LearnedFusion fusion,
        TuneReport report,
        Instant createdAt) {

    public Adaptation {
        if (version < 1) {
            throw new IllegalArgumentException("illegal version: " + version + ", must be >= 1");
        }
        Objects.requireNonNull(state, "state");
        if (replaces < 0 || replaces >= version) {
            throw new IllegalArgumentException(
                    "illegal replaces: " + replaces + ", must be in [0, " + (version - 1) + "]");
        }
        Objects.requireNonNull(adapter, "adapter");
        if (!(denseWeight > 0) || Double.isInfinite(denseWeight)) {
            throw new IllegalArgumentException(
                    "illegal denseWeight: " + denseWeight + ", must be > 0 and finite");
        }
        Objects.requireNonNull(prior, "prior");
        Objects.requireNonNull(fusion, "fusion");
        Objects.requireNonNull(report, "report");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** Where an adaptation stands. */
    public enum State {
        /** Applied by every retrieve of the namespace (at most one per namespace). */
        ACTIVE,
        /** Was active until a newer one replaced it; a rollback of that one reactivates it. */
        RETIRED,
        /** Trained, but did not beat the ranking of its time on the held-back judgments. */
        REJECTED,
        /** Was active until rolled back. */
        ROLLED_BACK;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }
}
