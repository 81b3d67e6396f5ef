package dev.cairn.retrieval;

import java.util.List;

/**
 * The entities a query linked to and the relations the graph signal traversed, for the retrieve
 * answer.
 */
public record GraphContext(List<LinkedEntity> entities, List<TraversedRelation> relations) {

    public static final GraphContext EMPTY = new GraphContext(List.of(), List.of());

    public GraphContext {
        entities = List.copyOf(entities);
        relations = List.copyOf(relations);
    }

    /** An entity the query named. */
    public record LinkedEntity(String id, String name) {}

    /** A typed, weighted relation between two graph nodes. */
    public record TraversedRelation(String from, String to, String type, double weight) {}
}
