package dev.cairn.server.api.body;

import dev.cairn.retrieval.feedback.TuneOptions;
import java.util.Objects;

/**
 * {@code POST /v1/namespaces/{ns}/adaptation/train}: the share of judged queries held back and the
 * weight of the judged-relevant prior (0 trains without one).
 */
public record TrainBody(Double holdOut, Double priorWeight) {

    public TrainBody {
        holdOut = Objects.requireNonNullElse(holdOut, TuneOptions.DEFAULT_HOLD_OUT);
        priorWeight = Objects.requireNonNullElse(priorWeight, TuneOptions.DEFAULT_PRIOR_WEIGHT);
    }

    /** The options these settings give. */
    public TuneOptions options() {
        return TuneOptions.DEFAULTS.withHoldOut(holdOut).withPriorWeight(priorWeight);
    }
}
