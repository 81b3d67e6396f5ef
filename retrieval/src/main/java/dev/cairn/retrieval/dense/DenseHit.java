package dev.cairn.retrieval.dense;

import dev.cairn.store.Records;

/**
 * One answer of a {@link DenseIndex} search.
 *
 * @param chunkId the chunk
 * @param similarity cosine similarity to the query, in [-1, 1], higher is closer
 */
public record DenseHit(String chunkId, double similarity) {

    public DenseHit {
        Records.requireText(chunkId, "chunkId");
        if (Double.isNaN(similarity)) {
            throw new IllegalArgumentException("illegal similarity: NaN, must be a number");
        }
    }
}
