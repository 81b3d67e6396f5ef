package dev.cairn.embeddings.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Optional;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@code softmax(Q·Kᵀ)·V} per input and head over each input's own tokens, in Java with the Vector
 * API, the {@code (input, head)} pairs split across the cores ({@link SpinningHelpers}).
 *
 * <p>Why: ATen's flash attention computes its block products with MKL's single-precision GEMM,
 * which on AMD CPUs runs a generic AVX2 code path with a copy of both blocks per call; with BERT's
 * 32-wide heads those products are small. On AMD EPYC Zen 5 (2 cores) attention was 46% of an int8
 * document pass (MKL's sgemm and its copies 34%, the kernel's own softmax 12%). Here the products
 * are register-blocked: eight query rows against two vectors of keys (Q·Kᵀ, from keys transposed
 * once per head) and eight rows against two vectors of value columns (P·V). Padding is skipped
 * instead of masked: an input's keys end at its length, and its padding rows get zeros.
 *
 * <p>Needs the incubating {@code jdk.incubator.vector} module ({@code --add-modules}): without it
 * this class cannot load, and {@code BertEncoder.vectorAttention} gives none; nor does {@link
 * #load} where a head is not a whole number of vector pairs. Passes then keep {@link
 * FusedAttention}. Results equal fused attention's within float rounding (the softmax sums in
 * another order).
 *
 * <p>One caller at a time (the inference thread): the helpers are shared.
 */
public final class VectorAttention {

    /** Query rows computed together: eight accumulators hide the FMA latency. */
    private static final int ROWS = 8;

    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;
    private static final int LANES = SPECIES.length();

    /**
     * Columns a product computes at once, two vectors: sixteen accumulators take one load of each
     * row of {@code b} per eight FMAs, not per four (17% less time for attention on Zen 5).
     */
    private static final int COLUMNS = 2 * LANES;

    private final int heads;
    private final int headDim;
    private final SpinningHelpers helpers;

    private VectorAttention(int heads, int headDim, SpinningHelpers helpers) {
        this.heads = heads;
        this.headDim = headDim;
        this.helpers = helpers;
    }

    /**
     * The attention for {@code heads} heads of {@code headDim} values where a head is a whole
     * number of vector pairs ({@code 2 · 16} floats with AVX-512), else empty. Callers check first
     * that {@code jdk.incubator.vector} is loaded: without it this class cannot load.
     */
    public static Optional<VectorAttention> load(int heads, int headDim, SpinningHelpers helpers) {
        if (heads < 1 || headDim < 1) {
            throw new IllegalArgumentException(
                    "illegal attention: " + heads + " heads of " + headDim);
        }
        return LANES > 1 && headDim % COLUMNS == 0
                ? Optional.of(new VectorAttention(heads, headDim, helpers))
                : Optional.empty();
    }

    /**
     * Attention over {@code qkv}, {@code [b·t, 3·hidden]} float rows (each token's queries, already
     * scaled, then keys, then values, head after head; input {@code j}'s tokens are rows {@code
     * j·t} to {@code j·t + lengths[j] - 1}, the rest padding), into {@code out}, {@code [b·t,
     * hidden]}: each row's heads side by side, zeros for padding rows. With {@code firstOnly}, only
     * each input's first row: {@code out} is {@code [b, hidden]}.
     */
    public void apply(
            MemorySegment qkv, int[] lengths, int t, boolean firstOnly, MemorySegment out) {
        int b = lengths.length;
        int hidden = heads * headDim;
        long rows = (long) b * t;
        if (t < 1 || qkv.byteSize() != rows * 3 * hidden * Float.BYTES) {
            throw new IllegalArgumentException(
                    "illegal qkv: " + qkv.byteSize() + " bytes for " + b + " inputs of " + t);
        }
        long outRows = firstOnly ? b : rows;
        if (out.byteSize() != outRows * hidden * Float.BYTES) {
            throw new IllegalArgumentException(
                    "illegal output: " + out.byteSize() + " bytes for " + outRows + " rows");
        }
        for (int length : lengths) {
            if (length < 1 || length > t) {
                throw new IllegalArgumentException("illegal length: " + length + " of " + t);
            }
        }
        helpers.byRows(
                b * heads,
                1,
                (from, to) -> {
                    Scratch scratch = new Scratch(t);
                    for (int unit = from; unit < to; unit++) {
                        int input = unit / heads;
                        head(qkv, input, unit % heads, lengths[input], t, firstOnly, out, scratch);
                    }
                });
    }

    /** One thread's buffers, sized for inputs of up to {@code t} tokens. */
    private final class Scratch {
        /** Keys transposed, {@code [headDim, keys]}, zero past the input's length. */
        final float[] keys;

        /** A vector's worth of key rows as they are, {@code [LANES, headDim]}. */
        final float[] keyRows = new float[LANES * headDim];

        /** Where each of those rows starts: a dimension of all of them is one gather. */
        final int[] rowStarts = new int[LANES];

        /** Values, {@code [keys, headDim]}, zero past the input's length. */
        final float[] values;

        /** Queries of a block, {@code [ROWS, headDim]}. */
        final float[] queries = new float[ROWS * headDim];

        /** Logits, then probabilities, of a block, {@code [ROWS, keys]}. */
        final float[] weights;

        /** Attention's output for a block, {@code [ROWS, headDim]}. */
        final float[] context = new float[ROWS * headDim];

        /** Each row's softmax sum as lanes, {@code [ROWS, LANES]}. */
        final float[] lanes = new float[ROWS * LANES];

        Scratch(int t) {
            for (int j = 0; j < LANES; j++) {
                rowStarts[j] = j * headDim;
            }
            int keysPadded = roundUp(t);
            keys = new float[headDim * keysPadded];
            values = new float[keysPadded * headDim];
            weights = new float[ROWS * keysPadded];
        }
    }

    private static int roundUp(int n) {
        return (n + COLUMNS - 1) / COLUMNS * COLUMNS;
    }

    private void head(
            MemorySegment qkv,
            int input,
            int head,
            int length,
            int t,
            boolean firstOnly,
            MemorySegment out,
            Scratch s) {
        int hidden = heads * headDim;
        long rowFloats = 3L * hidden;
        long firstRow = (long) input * t;
        int n = roundUp(length);
        // a vector's worth of keys copied row by row, then transposed a dimension at a time with a
        // gather: a third of the time of reading and writing each value on its own
        for (int first = 0; first < n; first += LANES) {
            for (int j = 0; j < LANES; j++) {
                int key = first + j;
                if (key < length) {
                    long at = ((firstRow + key) * rowFloats + hidden + (long) head * headDim);
                    MemorySegment.copy(
                            qkv,
                            ValueLayout.JAVA_FLOAT,
                            at * Float.BYTES,
                            s.keyRows,
                            j * headDim,
                            headDim);
                    MemorySegment.copy(
                            qkv,
                            ValueLayout.JAVA_FLOAT,
                            (at + hidden) * Float.BYTES,
                            s.values,
                            key * headDim,
                            headDim);
                } else {
                    Arrays.fill(s.keyRows, j * headDim, (j + 1) * headDim, 0f);
                    Arrays.fill(s.values, key * headDim, (key + 1) * headDim, 0f);
                }
            }
            for (int d = 0; d < headDim; d++) {
                FloatVector.fromArray(SPECIES, s.keyRows, d, s.rowStarts, 0)
                        .intoArray(s.keys, d * n + first);
            }
        }
        int queryRows = firstOnly ? 1 : length;
        for (int r0 = 0; r0 < queryRows; r0 += ROWS) {
            int block = Math.min(ROWS, queryRows - r0);
            for (int i = 0; i < ROWS; i++) {
                // rows past the block repeat its last row; their results are not written
                long at = (firstRow + r0 + Math.min(i, block - 1)) * rowFloats + head * headDim;
                MemorySegment.copy(
                        qkv,
                        ValueLayout.JAVA_FLOAT,
                        at * Float.BYTES,
                        s.queries,
                        i * headDim,
                        headDim);
            }
            logits(s, n);
            softmax(s.weights, n, length, s.lanes);
            long outFirst = firstOnly ? input : firstRow + r0;
            weighted(s, n, out, outFirst * hidden + (long) head * headDim, hidden, block);
        }
        if (!firstOnly) {
            for (long r = firstRow + length; r < firstRow + t; r++) {
                out.asSlice(
                                (r * hidden + (long) head * headDim) * Float.BYTES,
                                (long) headDim * Float.BYTES)
                        .fill((byte) 0);
            }
        }
    }

    /** {@code weights[i][key] = queries[i] · keys[·][key]} for the block's eight rows. */
    private void logits(Scratch s, int n) {
        for (int key = 0; key < n; key += COLUMNS) {
            product(s.queries, headDim, s.keys, n, headDim, key, s.weights, n);
        }
    }

    /**
     * {@link #COLUMNS} columns from {@code column} of the product of eight rows of {@code a}
     * ({@code aStride} apart) and {@code b} ({@code depth} rows {@code bStride} apart) into the
     * eight rows of {@code c} ({@code cStride} apart): sixteen accumulators in registers, each
     * element of {@code a} broadcast once for both vectors.
     */
    private static void product(
            float[] a,
            int aStride,
            float[] b,
            int bStride,
            int depth,
            int column,
            float[] c,
            int cStride) {
        FloatVector a0 = FloatVector.zero(SPECIES);
        FloatVector a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
        FloatVector b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0, b5 = a0, b6 = a0, b7 = a0;
        for (int x = 0; x < depth; x++) {
            FloatVector u = FloatVector.fromArray(SPECIES, b, x * bStride + column);
            FloatVector v = FloatVector.fromArray(SPECIES, b, x * bStride + column + LANES);
            FloatVector r = FloatVector.broadcast(SPECIES, a[x]);
            a0 = u.fma(r, a0);
            b0 = v.fma(r, b0);
            r = FloatVector.broadcast(SPECIES, a[aStride + x]);
            a1 = u.fma(r, a1);
            b1 = v.fma(r, b1);
            r = FloatVector.broadcast(SPECIES, a[2 * aStride + x]);
            a2 = u.fma(r, a2);
            b2 = v.fma(r, b2);
            r = FloatVector.broadcast(SPECIES, a[3 * aStride + x]);
            a3 = u.fma(r, a3);
            b3 = v.fma(r, b3);
            r = FloatVector.broadcast(SPECIES, a[4 * aStride + x]);
            a4 = u.fma(r, a4);
            b4 = v.fma(r, b4);
            r = FloatVector.broadcast(SPECIES, a[5 * aStride + x]);
            a5 = u.fma(r, a5);
            b5 = v.fma(r, b5);
            r = FloatVector.broadcast(SPECIES, a[6 * aStride + x]);
            a6 = u.fma(r, a6);
            b6 = v.fma(r, b6);
            r = FloatVector.broadcast(SPECIES, a[7 * aStride + x]);
            a7 = u.fma(r, a7);
            b7 = v.fma(r, b7);
        }
        store(c, cStride, column, a0, a1, a2, a3, a4, a5, a6, a7);
        store(c, cStride, column + LANES, b0, b1, b2, b3, b4, b5, b6, b7);
    }

    /** Eight row vectors into {@code c} at {@code column}, rows {@code cStride} apart. */
    private static void store(
            float[] c,
            int cStride,
            int column,
            FloatVector r0,
            FloatVector r1,
            FloatVector r2,
            FloatVector r3,
            FloatVector r4,
            FloatVector r5,
            FloatVector r6,
            FloatVector r7) {
        r0.intoArray(c, column);
        r1.intoArray(c, cStride + column);
        r2.intoArray(c, 2 * cStride + column);
        r3.intoArray(c, 3 * cStride + column);
        r4.intoArray(c, 4 * cStride + column);
        r5.intoArray(c, 5 * cStride + column);
        r6.intoArray(c, 6 * cStride + column);
        r7.intoArray(c, 7 * cStride + column);
    }

    /**
     * Each of the eight rows of {@code w} ({@code n} wide, the first {@code length} real) turned
     * into probabilities in place; zero past {@code length}. {@code lanes} ({@code [ROWS, LANES]})
     * takes each row's sum as lanes.
     *
     * <p>Written for the latency of a row's passes: the maximum runs two chains (the Vector API's
     * {@code MAX} carries Java's NaN and signed-zero rules, several instructions a step), and the
     * eight rows' lanes are summed together after their exp passes, where one row's sixteen lanes
     * were a chain of scalar adds. The same bits as a row at a time: the maximum is exact in any
     * order, and each row's lanes are still added in order 0, 1, ...
     */
    private static void softmax(float[] w, int n, int length, float[] lanes) {
        for (int i = 0; i < ROWS; i++) {
            int row = i * n;
            // at most 31 values: a loop, not Arrays.fill's call into a stub
            for (int key = row + length; key < row + n; key++) {
                w[key] = Float.NEGATIVE_INFINITY;
            }
            float max = rowMax(w, row, n);
            FloatVector sum = FloatVector.zero(SPECIES);
            for (int key = 0; key < n; key += LANES) {
                FloatVector e = exp(FloatVector.fromArray(SPECIES, w, row + key).sub(max));
                e.intoArray(w, row + key);
                sum = sum.add(e);
            }
            sum.intoArray(lanes, i * LANES);
        }
        // lanes added in a fixed order: reduceLanes(ADD) may take another order compiled than
        // interpreted, and a vector must not depend on how warm the JIT is
        float[] totals = new float[ROWS];
        for (int lane = 0; lane < LANES; lane++) {
            for (int i = 0; i < ROWS; i++) {
                totals[i] += lanes[i * LANES + lane];
            }
        }
        for (int i = 0; i < ROWS; i++) {
            int row = i * n;
            float scale = 1f / totals[i];
            for (int key = 0; key < n; key += LANES) {
                FloatVector.fromArray(SPECIES, w, row + key).mul(scale).intoArray(w, row + key);
            }
        }
    }

    /** The largest of a row's {@code n} values (a whole number of vector pairs). */
    private static float rowMax(float[] w, int row, int n) {
        FloatVector m0 = FloatVector.broadcast(SPECIES, Float.NEGATIVE_INFINITY);
        FloatVector m1 = m0;
        for (int key = 0; key < n; key += 2 * LANES) {
            m0 = m0.max(FloatVector.fromArray(SPECIES, w, row + key));
            m1 = m1.max(FloatVector.fromArray(SPECIES, w, row + key + LANES));
        }
        return m0.max(m1).reduceLanes(VectorOperators.MAX);
    }

    private static final float LOG2E = 1.44269504088896341f;
    private static final float LN2_HI = 0.693359375f;
    private static final float LN2_LO = -2.12194440e-4f;

    /** 1.5·2²³: adding and subtracting it rounds a float below 2²² to the nearest integer. */
    private static final float ROUNDING = 12582912f;

    /** Below it, exp is under float's smallest normal: taken as 0 (as for padding's -inf). */
    private static final float EXP_MIN = -87.3f;

    /**
     * {@code exp(x)} for {@code x <= 0} (Cephes' expf: {@code x = k·ln 2 + r}, a degree-6
     * polynomial in {@code r}, {@code 2^k} from the exponent bits; within 2 ulp), 0 below {@link
     * #EXP_MIN}. Written with IEEE operations only, so it gives the same bits compiled and
     * interpreted (the Vector API's {@code EXP} calls another library once compiled).
     */
    private static FloatVector exp(FloatVector x) {
        var under = x.lt(EXP_MIN);
        FloatVector clamped = x.max(EXP_MIN);
        FloatVector k = clamped.mul(LOG2E).add(ROUNDING).sub(ROUNDING);
        FloatVector r = k.fma(FloatVector.broadcast(SPECIES, -LN2_HI), clamped);
        r = k.fma(FloatVector.broadcast(SPECIES, -LN2_LO), r);
        FloatVector p = FloatVector.broadcast(SPECIES, 1.9875691500e-4f);
        p = p.fma(r, FloatVector.broadcast(SPECIES, 1.3981999507e-3f));
        p = p.fma(r, FloatVector.broadcast(SPECIES, 8.3334519073e-3f));
        p = p.fma(r, FloatVector.broadcast(SPECIES, 4.1665795894e-2f));
        p = p.fma(r, FloatVector.broadcast(SPECIES, 1.6666665459e-1f));
        p = p.fma(r, FloatVector.broadcast(SPECIES, 5.0000001201e-1f));
        FloatVector r2 = r.mul(r);
        FloatVector e = p.fma(r2, r).add(1f);
        IntVector bits =
                ((IntVector) k.convert(VectorOperators.F2I, 0))
                        .add(127)
                        .lanewise(VectorOperators.LSHL, 23);
        FloatVector scale = bits.reinterpretAsFloats();
        return e.mul(scale).blend(0f, under);
    }

    /**
     * {@code out[i] = weights[i] · values} for the block's first {@code block} rows, written {@code
     * stride} floats apart from float {@code at} of {@code out}.
     */
    private void weighted(Scratch s, int n, MemorySegment out, long at, int stride, int block) {
        for (int column = 0; column < headDim; column += COLUMNS) {
            product(s.weights, n, s.values, headDim, n, column, s.context, headDim);
        }
        for (int i = 0; i < block; i++) {
            MemorySegment.copy(
                    s.context,
                    i * headDim,
                    out,
                    ValueLayout.JAVA_FLOAT,
                    (at + (long) i * stride) * Float.BYTES,
                    headDim);
        }
    }
}
