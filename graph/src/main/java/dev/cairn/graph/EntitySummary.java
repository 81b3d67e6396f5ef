package dev.cairn.graph;

import java.util.List;
import java.util.Objects;

/**
 * An entity as {@code GET entities} lists it.
 *
 * @param id canonical key
 * @param name display name
 * @param kind entity kind
 * @param aliases other names
 * @param degree number of edges at the entity's node (relations and mentions)
 */
public record EntitySummary(
        String id, String name, EntityKind kind, List<String> aliases, int degree) {

    /** Validates and copies. */
    public EntitySummary {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        aliases = List.copyOf(aliases);
        if (degree < 0) {
            throw new IllegalArgumentException("illegal degree: " + degree + ", must be >= 0");
        }
    }
}
