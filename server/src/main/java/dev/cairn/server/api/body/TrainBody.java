package dev.cairn.server.api.body;

import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.server.api.AdaptationSubject;
import java.util.Objects;

/**
 * {@code POST /v1/namespaces/{ns}/adaptation/train}: what to adapt ({@code documents}, retrieve's,
 * by default; {@code memories}, recall's), the share of judged queries held back and the weight of
 * the judged-relevant prior (0 trains without one; absent: the subject's default, {@link
 * TuneOptions#DEFAULT_PRIOR_WEIGHT} or {@link TuneOptions#DEFAULT_MEMORY_PRIOR_WEIGHT}).
 */
public record TrainBody(String subject, Double holdOut, Double priorWeight) {

    public TrainBody {
        subject = Objects.requireNonNullElse(subject, AdaptationSubject.DOCUMENTS.wireName());
        holdOut = Objects.requireNonNullElse(holdOut, TuneOptions.DEFAULT_HOLD_OUT);
    }

    /** The options these settings give. */
    public TuneOptions options() {
        TuneOptions defaults =
                adaptationSubject() == AdaptationSubject.MEMORIES
                        ? TuneOptions.MEMORY_DEFAULTS
                        : TuneOptions.DEFAULTS;
        return defaults.withHoldOut(holdOut)
                .withPriorWeight(priorWeight == null ? defaults.priorWeight() : priorWeight);
    }

    /** What to adapt; a 400 naming the legal values when unknown. */
    public AdaptationSubject adaptationSubject() {
        return AdaptationSubject.parse(subject);
    }
}
