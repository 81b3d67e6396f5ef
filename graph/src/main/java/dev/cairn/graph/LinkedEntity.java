package dev.cairn.graph;

import java.util.Objects;

/**
 * An entity the query names.
 *
 * @param id canonical key
 * @param name display name
 * @param kind entity kind
 * @param surface the query text that named it
 */
public record LinkedEntity(String id, String name, EntityKind kind, String surface) {

    /** Validates. */
    public LinkedEntity {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(surface, "surface");
    }
}
