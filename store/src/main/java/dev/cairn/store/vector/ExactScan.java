package dev.cairn.store.vector;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collector;

/** {@link NearestVectors#exact}. Immutable. */
final class ExactScan implements NearestVectors {

    private final Similarity similarity;
    private final int parallelFrom;

    ExactScan(Similarity similarity, int parallelFrom) {
        this.similarity = Objects.requireNonNull(similarity, "similarity");
        if (parallelFrom < 1) {
            throw new IllegalArgumentException(
                    "illegal parallelFrom: " + parallelFrom + ", must be >= 1");
        }
        this.parallelFrom = parallelFrom;
    }

    @Override
    public NearestVectors parallelFrom(int entries) {
        return new ExactScan(similarity, entries);
    }

    @Override
    public Similarity similarity() {
        return similarity;
    }

    @Override
    public <E> List<VectorHit> nearest(
            Collection<? extends E> entries,
            Function<? super E, String> id,
            Function<? super E, float[]> vector,
            Predicate<? super E> filter,
            float[] query,
            int k) {
        if (query.length == 0) {
            // a vector not embedded yet is empty too: it would match an empty query
            throw new IllegalArgumentException("illegal query: empty, must have dimensions");
        }
        if (entries.size() < parallelFrom) {
            TopK top = new TopK(k);
            for (E e : entries) {
                offer(top, e, id, vector, filter, query);
            }
            return top.best();
        }
        return entries.parallelStream()
                .collect(
                        Collector.of(
                                () -> new TopK(k),
                                (TopK t, E e) -> offer(t, e, id, vector, filter, query),
                                TopK::merge))
                .best();
    }

    private <E> void offer(
            TopK top,
            E entry,
            Function<? super E, String> id,
            Function<? super E, float[]> vector,
            Predicate<? super E> filter,
            float[] query) {
        float[] v = vector.apply(entry);
        if (v.length == query.length && filter.test(entry)) {
            top.offer(id.apply(entry), similarity.score(query, v));
        }
    }

    @Override
    public String toString() {
        return "ExactScan[" + similarity + ", parallel from " + parallelFrom + "]";
    }
}
