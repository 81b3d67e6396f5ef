package dev.cairn.retrieval.dense;

import dev.cairn.store.vector.NearestVectors;
import dev.cairn.store.vector.Similarity;

/**
 * Cosine similarity of unit-length vectors (the encoders normalise), which is their dot product,
 * and the one exact scan by it. The dot product is {@link OrderedDot}'s: SIMD through the Vector
 * API when the JVM has it (the launcher adds the module), else scalar, the same bits either way and
 * on every call, so equal scores stay equal and ties go by id; the store module cannot have it, so
 * every module above the store takes it from here. Stateless and thread-safe.
 */
public final class UnitVectors {

    /** The cosine of unit vectors: {@link #cosine}. */
    public static final Similarity COSINE = UnitVectors::cosine;

    private static final NearestVectors SCAN = NearestVectors.exact(COSINE);

    private UnitVectors() {}

    /** The dot product of two vectors of equal length: their cosine when both are unit length. */
    public static double cosine(float[] a, float[] b) {
        return OrderedDot.dot(a, b);
    }

    /** The exact nearest-vector scan by {@link #COSINE}, sequential. */
    public static NearestVectors scan() {
        return SCAN;
    }
}
