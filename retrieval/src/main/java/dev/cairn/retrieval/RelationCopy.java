package dev.cairn.retrieval;

import dev.cairn.graph.Relation;
import java.time.Instant;
import java.util.Objects;

/**
 * A relation created through {@code POST relations} as a namespace export carries it: its id, its
 * ends as they were given (an entity name or a document id, resolved by the graph where it is
 * restored), type, confidence and time. Relations from front matter travel with their document;
 * relations stated in text are derived again.
 */
public record RelationCopy(String id, Relation relation, Instant createdAt) {

    public RelationCopy {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("illegal relation id: blank");
        }
        Objects.requireNonNull(relation, "relation");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
