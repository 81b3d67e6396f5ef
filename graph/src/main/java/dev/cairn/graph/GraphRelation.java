package dev.cairn.graph;

import java.util.Objects;

/**
 * A stored relation as answers show it ({@code {from, to, type, weight}}).
 *
 * @param from source node
 * @param to target node
 * @param type relation type
 * @param weight edge weight: type weight times confidence, in [0, 1]
 */
public record GraphRelation(NodeRef from, NodeRef to, RelationType type, double weight) {

    /** Validates. */
    public GraphRelation {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(type, "type");
        if (!(weight >= 0.0 && weight <= 1.0)) {
            throw new IllegalArgumentException("illegal weight: " + weight + ", must be in [0, 1]");
        }
    }
}
