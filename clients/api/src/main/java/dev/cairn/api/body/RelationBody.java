package dev.cairn.api.body;

import java.util.Objects;

/** {@code POST /v1/namespaces/{ns}/relations}: confidence defaults to 1. */
public record RelationBody(String from, String to, String type, Double confidence) {

    public RelationBody {
        from = Objects.requireNonNullElse(from, "");
        to = Objects.requireNonNullElse(to, "");
        type = Objects.requireNonNullElse(type, "");
        confidence = Objects.requireNonNullElse(confidence, 1.0);
    }
}
