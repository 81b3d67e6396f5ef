package dev.cairn.graph;

import java.util.List;
import java.util.Objects;

/**
 * An entity with its relations, as {@code GET entities/{id}} shows it.
 *
 * @param entity the entity
 * @param relations relations to and from it, mentions excluded, sorted by weight desc then by the
 *     other end
 * @param mentionedBy number of chunks that mention it
 */
public record EntityDetail(EntitySummary entity, List<GraphRelation> relations, int mentionedBy) {

    /** Validates and copies. */
    public EntityDetail {
        Objects.requireNonNull(entity, "entity");
        relations = List.copyOf(relations);
        if (mentionedBy < 0) {
            throw new IllegalArgumentException(
                    "illegal mentionedBy: " + mentionedBy + ", must be >= 0");
        }
    }
}
