package dev.cairn.graph;

import java.util.Objects;

/**
 * An entity the query names.
 *
 * @param id canonical key
 * @param name display name
 * @param kind entity kind
 * @param surface the query text that named it
 * @param specificity in (0, 1]: how specifically the name picks out this entity in the namespace (1
 *     for declared entities and for names few chunks mention; lower for names many chunks mention);
 *     the graph signal's expansion from this entity starts at it
 */
public record LinkedEntity(
        String id, String name, EntityKind kind, String surface, double specificity) {

    /** Validates. */
    public LinkedEntity {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(surface, "surface");
        if (!(specificity > 0.0 && specificity <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal specificity: " + specificity + ", must be in (0, 1]");
        }
    }
}
