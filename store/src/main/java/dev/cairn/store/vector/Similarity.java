package dev.cairn.store.vector;

/**
 * How close a vector is to a query, higher is closer; a finite number for finite vectors of the
 * query's length. Implementations are stateless and thread-safe.
 */
@FunctionalInterface
public interface Similarity {

    /** The similarity of {@code vector} to {@code query}; both have the same length. */
    double score(float[] query, float[] vector);
}
