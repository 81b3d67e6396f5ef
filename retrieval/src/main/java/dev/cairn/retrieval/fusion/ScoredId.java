package dev.cairn.retrieval.fusion;

/**
 * One entry of a signal's ranking.
 *
 * @param id candidate id (a chunk id)
 * @param score the signal's raw score, finite
 */
public record ScoredId(String id, double score) {
    public ScoredId {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("illegal id: '" + id + "', must be non-empty");
        }
        if (!Double.isFinite(score)) {
            throw new IllegalArgumentException(
                    "illegal score: " + score + " for " + id + ", must be finite");
        }
    }
}
