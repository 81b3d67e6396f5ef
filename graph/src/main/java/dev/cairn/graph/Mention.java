package dev.cairn.graph;

import java.util.Objects;

/**
 * An entity mentioned in a text.
 *
 * @param entityId canonical key of the entity
 * @param surface the text as written
 * @param kind entity kind
 * @param start offset of the first character, {@code >= 0}
 * @param end offset after the last character, {@code > start}
 */
public record Mention(String entityId, String surface, EntityKind kind, int start, int end) {

    /** Validates. */
    public Mention {
        Objects.requireNonNull(entityId, "entityId");
        Objects.requireNonNull(surface, "surface");
        Objects.requireNonNull(kind, "kind");
        if (start < 0 || end <= start) {
            throw new IllegalArgumentException(
                    "illegal mention span: [" + start + ", " + end + "), must be 0 <= start < end");
        }
    }
}
