package dev.cairn.api.body;

import java.util.Objects;

/** {@code POST .../proposals/{id}/review}: {@code accepted} or {@code rejected}, by whom. */
public record ReviewBody(String status, String reviewer, String reviewNote) {

    public ReviewBody {
        status = Objects.requireNonNullElse(status, "");
        reviewer = Objects.requireNonNullElse(reviewer, "");
        reviewNote = Objects.requireNonNullElse(reviewNote, "");
    }
}
