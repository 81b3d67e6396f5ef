package dev.cairn.api.body;

import java.util.Objects;

/** {@code POST .../proposals/{id}/apply}: who applies the accepted proposal. */
public record ApplyBody(String appliedBy) {

    public ApplyBody {
        appliedBy = Objects.requireNonNullElse(appliedBy, "");
    }
}
