package dev.cairn.graph;

import java.util.Objects;

/**
 * A typed relation handed to the graph: from front matter ({@code governs: [ledger-db]}), from text
 * ("checkout-api depends on ledger-db") or from the API ({@code POST relations}).
 *
 * @param from source node
 * @param to target node
 * @param type relation type
 * @param confidence in [0, 1]; the edge weighs {@code type weight * confidence}
 */
public record Relation(NodeRef from, NodeRef to, RelationType type, double confidence) {

    /** Confidence of relations stated in front matter or through the API. */
    public static final double DECLARED_CONFIDENCE = 1.0;

    /** Validates. */
    public Relation {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(type, "type");
        if (!(confidence >= 0.0 && confidence <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal confidence: " + confidence + ", must be in [0, 1]");
        }
        if (from.kind() == NodeKind.CHUNK || to.kind() == NodeKind.CHUNK) {
            throw new IllegalArgumentException(
                    "illegal relation endpoint: chunk, must be an entity or a document ("
                            + from
                            + " -> "
                            + to
                            + ")");
        }
    }

    /**
     * A declared relation with confidence {@link #DECLARED_CONFIDENCE}.
     *
     * @param from source
     * @param type type
     * @param to target
     * @return the relation
     */
    public static Relation of(NodeRef from, RelationType type, NodeRef to) {
        return new Relation(from, to, type, DECLARED_CONFIDENCE);
    }
}
