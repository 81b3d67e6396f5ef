package dev.cairn.retrieval.feedback;

import java.util.Objects;

/**
 * How to train an adaptation from a namespace's judgments.
 *
 * @param holdOut the share of judged queries held back to compare the new ranking with the current
 *     one, in (0, 1)
 * @param trainer the training settings
 */
public record TuneOptions(double holdOut, QueryAdapterTrainer.Config trainer) {

    /** Default share held back. */
    public static final double DEFAULT_HOLD_OUT = 0.2;

    public static final TuneOptions DEFAULTS =
            new TuneOptions(DEFAULT_HOLD_OUT, QueryAdapterTrainer.Config.DEFAULTS);

    public TuneOptions {
        if (!(holdOut > 0 && holdOut < 1)) {
            throw new IllegalArgumentException(
                    "illegal holdOut: " + holdOut + ", must be in (0, 1)");
        }
        Objects.requireNonNull(trainer, "trainer");
    }

    public TuneOptions withHoldOut(double value) {
        return new TuneOptions(value, trainer);
    }

    public TuneOptions withTrainer(QueryAdapterTrainer.Config value) {
        return new TuneOptions(holdOut, value);
    }
}
