package dev.cairn.store.vector;

import java.util.Comparator;

/**
 * One answer of a nearest-vector scan.
 *
 * @param id the vector's id (a chunk, memory or message id)
 * @param score its {@link Similarity} to the query
 */
public record VectorHit(String id, double score) {

    /**
     * Higher score first, then id ascending: the order of every scan's answer. Written out rather
     * than chained ({@code comparingDouble(..).reversed().thenComparing(..)}): a 10,000-vector scan
     * compares on every heap step, and the chain's three lambda hops were a tenth of its CPU.
     */
    public static final Comparator<VectorHit> BEST_FIRST =
            (a, b) -> {
                int byScore = Double.compare(b.score, a.score);
                return byScore != 0 ? byScore : a.id.compareTo(b.id);
            };

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
