package dev.cairn.store.vector;

import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Exact top-k search by a {@link Similarity}: every vector is scored, the best {@code k} kept by
 * {@link TopK} (best first, ties by id ascending). Entries whose vector is not as long as the query
 * (not embedded yet, or by another model) are skipped. Immutable and thread-safe.
 */
public interface NearestVectors {

    /** A sequential exact scan by {@code similarity}. */
    static NearestVectors exact(Similarity similarity) {
        return new ExactScan(similarity, Integer.MAX_VALUE);
    }

    /**
     * This scan, split across the common fork-join pool's workers for collections of at least
     * {@code entries} entries (below that a split costs more than it saves). The answer is the same
     * either way.
     */
    NearestVectors parallelFrom(int entries);

    /** The similarity this scan ranks by. */
    Similarity similarity();

    /**
     * The {@code k} entries nearest to {@code query} among those {@code filter} accepts, best
     * first, ties by id.
     *
     * @param id an entry's id, unique in {@code entries}
     * @param vector an entry's vector
     * @throws IllegalArgumentException when {@code k < 1} or the query is empty
     */
    <E> List<VectorHit> nearest(
            Collection<? extends E> entries,
            Function<? super E, String> id,
            Function<? super E, float[]> vector,
            Predicate<? super E> filter,
            float[] query,
            int k);

    /** {@link #nearest(Collection, Function, Function, Predicate, float[], int)} of every entry. */
    default <E> List<VectorHit> nearest(
            Collection<? extends E> entries,
            Function<? super E, String> id,
            Function<? super E, float[]> vector,
            float[] query,
            int k) {
        return nearest(entries, id, vector, e -> true, query, k);
    }
}
