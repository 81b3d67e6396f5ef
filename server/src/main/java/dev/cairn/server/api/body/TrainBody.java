package dev.cairn.server.api.body;

import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.server.api.AdaptationSubject;
import java.util.Objects;

/**
 * {@code POST /v1/namespaces/{ns}/adaptation/train}: what to adapt ({@code documents}, retrieve's,
 * by default; {@code memories}, recall's), the share of judged queries held back and the weight of
 * the judged-relevant prior (0 trains without one).
 */
public record TrainBody(String subject, Double holdOut, Double priorWeight) {

    public TrainBody {
        subject = Objects.requireNonNullElse(subject, AdaptationSubject.DOCUMENTS.wireName());
        holdOut = Objects.requireNonNullElse(holdOut, TuneOptions.DEFAULT_HOLD_OUT);
        priorWeight = Objects.requireNonNullElse(priorWeight, TuneOptions.DEFAULT_PRIOR_WEIGHT);
    }

    /** The options these settings give. */
    public TuneOptions options() {
        return TuneOptions.DEFAULTS.withHoldOut(holdOut).withPriorWeight(priorWeight);
    }

    /** What to adapt; a 400 naming the legal values when unknown. */
    public AdaptationSubject adaptationSubject() {
        return AdaptationSubject.parse(subject);
    }
}
