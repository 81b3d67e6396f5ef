package dev.cairn.graph;

import java.util.List;

/**
 * What one document brought to a namespace graph, as {@code GET documents/{id}/graph} shows it.
 *
 * @param entities the entities its chunks mention, by id
 * @param relations the typed relations it declared (front matter) or stated (its text), mentions
 *     and the structural chunk links excluded
 */
public record DocumentGraph(List<EntitySummary> entities, List<GraphRelation> relations) {

    /** Copies. */
    public DocumentGraph {
        entities = List.copyOf(entities);
        relations = List.copyOf(relations);
    }
}
