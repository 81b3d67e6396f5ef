package dev.cairn.graph;

import java.util.List;
import java.util.Objects;

/**
 * A chunk ranked by graph proximity, with the path that explains it.
 *
 * @param chunkId chunk id
 * @param documentId its document
 * @param score proximity score in (0, 1]
 * @param rank 1-based rank
 * @param hops edges on the path from a linked entity to the chunk
 * @param path the path's edges in walking order, each shown in its stored direction
 */
public record GraphHit(
        String chunkId,
        String documentId,
        double score,
        int rank,
        int hops,
        List<GraphRelation> path) {

    /** Validates and copies. */
    public GraphHit {
        Objects.requireNonNull(chunkId, "chunkId");
        Objects.requireNonNull(documentId, "documentId");
        if (!(score > 0.0 && score <= 1.0)) {
            throw new IllegalArgumentException("illegal score: " + score + ", must be in (0, 1]");
        }
        if (rank < 1) {
            throw new IllegalArgumentException("illegal rank: " + rank + ", must be >= 1");
        }
        if (hops < 0) {
            throw new IllegalArgumentException("illegal hops: " + hops + ", must be >= 0");
        }
        path = List.copyOf(path);
    }
}
