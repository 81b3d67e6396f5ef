package dev.cairn.api.body;

import java.util.Objects;

/** The optional body of a memory's {@code disable}, {@code enable} and {@code invalidate}. */
public record ReasonBody(String reason) {

    /** No body: no reason. */
    public static final ReasonBody NONE = new ReasonBody("");

    public ReasonBody {
        reason = Objects.requireNonNullElse(reason, "");
    }
}
