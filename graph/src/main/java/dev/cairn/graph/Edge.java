package dev.cairn.graph;

import org.jgrapht.graph.DefaultWeightedEdge;

/**
 * An edge of a namespace graph. Identity equality: the multigraph may hold equal-looking edges
 * brought by different documents. Extends JGraphT's intrusive {@link DefaultWeightedEdge} so the
 * graph keeps endpoints and weight in the edge itself: {@code getEdgeSource} is a field read rather
 * than a lookup in a map of every edge (the hottest call of a ranking).
 *
 * <p>Own fields immutable; endpoints and weight are written by the graph under the namespace's
 * write lock.
 */
final class Edge extends DefaultWeightedEdge {

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
