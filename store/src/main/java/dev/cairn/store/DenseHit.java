package dev.cairn.store;

/**
 * One answer of {@link Store#denseSearch}.
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
