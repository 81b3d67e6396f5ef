package dev.cairn.graph;

import java.util.List;
import java.util.Objects;

/**
 * A canonical entity of a namespace.
 *
 * @param id canonical key ({@link Canonical#key} of the name)
 * @param name display name (the declared name, or the first surface form seen)
 * @param kind entity kind
 * @param aliases other names, in the order first seen
 * @param declared true when front matter or the API declared it, false when only extracted
 */
public record Entity(
        String id, String name, EntityKind kind, List<String> aliases, boolean declared) {

    /** Validates and copies. */
    public Entity {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        if (id.isBlank()) {
            throw new IllegalArgumentException(
                    "illegal entity id: '" + id + "', must not be blank");
        }
        aliases = List.copyOf(aliases);
    }
}
