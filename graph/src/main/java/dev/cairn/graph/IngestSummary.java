package dev.cairn.graph;

import java.util.List;

/**
 * What {@link EntityGraph#ingest} stored for one document.
 *
 * @param documentId document id
 * @param entityIds distinct entities its chunks mention, sorted
 * @param mentions mention count
 * @param relations relations stored (front matter and text)
 */
public record IngestSummary(
        String documentId, List<String> entityIds, int mentions, List<Relation> relations) {

    /** Copies. */
    public IngestSummary {
        entityIds = List.copyOf(entityIds);
        relations = List.copyOf(relations);
    }
}
