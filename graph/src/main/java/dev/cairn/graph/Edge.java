package dev.cairn.graph;

/**
 * An edge of a namespace graph. Identity equality: the multigraph may hold equal-looking edges
 * brought by different documents. Endpoints live in the JGraphT graph.
 *
 * <p>Immutable; thread-safe.
 */
final class Edge {

    /** Origin of relations added through the API rather than by a document. */
    static final String API_ORIGIN = "";

    final RelationType type;
    final double confidence;
    final String origin;
    final boolean structural;

    Edge(RelationType type, double confidence, String origin, boolean structural) {
        this.type = type;
        this.confidence = confidence;
        this.origin = origin;
        this.structural = structural;
    }

    /** Default weight: a chunk fully belongs to its document; else type weight x confidence. */
    double defaultWeight() {
        return structural ? 1.0 : type.defaultWeight() * confidence;
    }

    @Override
    public String toString() {
        return type.wireName() + (structural ? "(structural)" : "") + "@" + confidence;
    }
}
