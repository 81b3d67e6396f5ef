package dev.cairn.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;

/** The parts retrieve answers and stored traces share: per-signal outcomes and graph relations. */
public final class SignalViews {

    private SignalViews() {}

    /** How one signal did: {@code detail} only when it says something. */
    public record Outcome(
            String status,
            double ms,
            int returned,
            @JsonInclude(JsonInclude.Include.NON_NULL) String detail) {}

    /** A traversed relation of the entity graph. */
    public record Relation(String from, String to, String type, double weight) {}
}
