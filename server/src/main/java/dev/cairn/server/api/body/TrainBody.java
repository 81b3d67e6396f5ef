package dev.cairn.server.api.body;

import dev.cairn.retrieval.feedback.TuneOptions;
import java.util.Objects;

/** {@code POST /v1/namespaces/{ns}/adaptation/train}: the share of judged queries held back. */
public record TrainBody(Double holdOut) {

    public TrainBody {
        holdOut = Objects.requireNonNullElse(holdOut, TuneOptions.DEFAULT_HOLD_OUT);
    }
}
