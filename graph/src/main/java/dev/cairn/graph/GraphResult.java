package dev.cairn.graph;

import java.util.List;
import java.util.Objects;

/**
 * Answer of {@link GraphSignal#rank}: ranked chunks, the entities the query named, and the
 * entity/document relations the hits' paths cross (for the retrieve answer's {@code entities} and
 * {@code relations}).
 *
 * @param hits chunks, best first (score desc, chunk id asc)
 * @param entities linked entities in query order
 * @param relations relations on the hits' paths, chunk edges excluded, without duplicates
 * @param strategy the algorithm that scored them
 */
public record GraphResult(
        List<GraphHit> hits,
        List<LinkedEntity> entities,
        List<GraphRelation> relations,
        Proximity strategy) {

    /** Validates and copies. */
    public GraphResult {
        hits = List.copyOf(hits);
        entities = List.copyOf(entities);
        relations = List.copyOf(relations);
        Objects.requireNonNull(strategy, "strategy");
    }
}
