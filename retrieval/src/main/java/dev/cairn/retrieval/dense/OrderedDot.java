package dev.cairn.retrieval.dense;

import dev.cairn.embeddings.kernels.VectorApi;

/**
 * The dot product of two float vectors summed in one fixed order, so that the same two vectors give
 * the same bits on every call: in the Vector API's interpreted and compiled code, with or without
 * the module, on 256- and 512-bit vector units alike.
 *
 * <p>Why: Lucene's {@code VectorUtil.dotProduct} ends with {@code reduceLanes(ADD)}, whose order
 * the Vector API leaves open; before C2 compiles it the sum runs lane after lane, after it as a
 * tree, and one pair of 384-dimension vectors gave two answers one float ulp apart in one JVM
 * (calls 0-12,581, then 12,582 on). Memories or chunks with equal vectors then ranked by which part
 * of a parallel scan reached them first, not by id.
 *
 * <p>The order: dimension {@code i} goes to lane {@code i mod 64} of 64 partial sums, each a chain
 * of fused multiply-adds ({@link Math#fma}); the 64 lanes are folded pairwise to 16 ({@code j + (j
 * + 32)}, then {@code j + (j + 16)}); dimensions past the last whole 64 are added into lane {@code
 * i mod 16}; the 16 are folded to one the same way (8, 4, 2, 1). Every step is one IEEE operation
 * on given operands, which a vector lane computes as a scalar does.
 */
final class OrderedDot {

    /** Partial sums the dimensions are dealt to. */
    static final int LANES = 64;

    /** Partial sums the whole-block lanes are folded to before the tail is added. */
    static final int FOLDED = 16;

    private static final boolean VECTORS = VectorApi.loaded() && VectorOrderedDot.supported();

    private OrderedDot() {}

    /** The dot product of {@code a} and {@code b}, which must have the same length. */
    static float dot(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException(
                    "vectors of different lengths: " + a.length + " and " + b.length);
        }
        return VECTORS ? VectorOrderedDot.dot(a, b) : scalar(a, b);
    }

    /** The same order with scalar arithmetic: the reference, and the path without the module. */
    static float scalar(float[] a, float[] b) {
        int whole = a.length - a.length % LANES;
        float[] lanes = new float[LANES];
        for (int i = 0; i < whole; i += LANES) {
            for (int j = 0; j < LANES; j++) {
                lanes[j] = Math.fma(a[i + j], b[i + j], lanes[j]);
            }
        }
        for (int j = 0; j < LANES / 2; j++) {
            lanes[j] += lanes[j + LANES / 2];
        }
        for (int j = 0; j < FOLDED; j++) {
            lanes[j] += lanes[j + FOLDED];
        }
        for (int i = whole; i < a.length; i++) {
            int j = i % FOLDED;
            lanes[j] = Math.fma(a[i], b[i], lanes[j]);
        }
        for (int width = FOLDED / 2; width > 0; width /= 2) {
            for (int j = 0; j < width; j++) {
                lanes[j] += lanes[j + width];
            }
        }
        return lanes[0];
    }
}
