package dev.cairn.store.vector;

import java.util.Comparator;

/**
 * One answer of a nearest-vector scan.
 *
 * @param id the vector's id (a chunk, memory or message id)
 * @param score its {@link Similarity} to the query
 */
public record VectorHit(String id, double score) {

    /** Higher score first, then id ascending: the order of every scan's answer. */
    public static final Comparator<VectorHit> BEST_FIRST =
            Comparator.comparingDouble(VectorHit::score).reversed().thenComparing(VectorHit::id);

    public VectorHit {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("illegal id: '" + id + "', must be non-empty");
        }
        if (Double.isNaN(score)) {
            throw new IllegalArgumentException(
                    "illegal score: NaN for " + id + ", must be a number");
        }
    }
}
