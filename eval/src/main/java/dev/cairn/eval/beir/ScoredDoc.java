package dev.cairn.eval.beir;

/**
 * A document in a ranked run.
 *
 * @param id document id
 * @param score its score
 */
public record ScoredDoc(String id, double score) {
    public ScoredDoc {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("illegal id: '" + id + "', must be non-empty");
        }
        if (Double.isNaN(score)) {
            throw new IllegalArgumentException("illegal score: NaN for " + id);
        }
    }
}
