package dev.cairn.embeddings.kernels;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link Int8Linear}'s row loops over tensor memory with the Vector API: activations quantised per
 * row, int32 products rescaled to float32 in place, a feed-forward block's intermediate activation
 * taken from int32 product to quantised GELU in one pass, and a linear layer's end (residual,
 * LayerNorm) taken to the next product's quantised input in one pass. Same bits as {@link
 * Int8Linear#quantiseRows}, {@link Int8Linear#rescaleRows} and {@code bert.Int8ShortPass}'s row
 * loops (the same IEEE operations in the same order; a row's maximum is exact in any order),
 * without copying each row into a Java array and back.
 *
 * <p>Why: after attention moved to Java, these loops and their copies were 16% of an int8 document
 * pass on AMD EPYC Zen 5 (perf); C2 vectorises the scalar loops only in part (rows of 4,096 x 384:
 * quantising 0.98 ms against 0.63 here, rescaling 4,096 x 1,536 2.6x faster here). oneDNN's GELU
 * then took 0.89 ns per element, the VM's memory speed over a 25 MB tensor read and written.
 *
 * <p>Needs {@code jdk.incubator.vector} ({@link VectorApi#loaded()}): without it this class cannot
 * load, and Int8Linear keeps its scalar loops.
 */
final class VectorRows {

    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;

    /** As many byte lanes as {@link #FLOATS} has float lanes: a row's quantised vector. */
    private static final VectorSpecies<Byte> BYTES =
            VectorSpecies.of(byte.class, VectorShape.forBitSize(FLOATS.length() * Byte.SIZE));

    private static final int LANES = FLOATS.length();

    /** Eight float lanes: {@link RowKernels}' eight partial sums, one per lane. */
    private static final VectorSpecies<Float> EIGHT = FloatVector.SPECIES_256;

    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private VectorRows() {}

    /** As {@link Int8Linear#quantiseRows}. */
    static void quantiseRows(
            MemorySegment x, MemorySegment q, float[] steps, int in, int from, int to) {
        int whole = in - in % LANES;
        for (int r = from; r < to; r++) {
            long row = (long) r * in;
            FloatVector max = FloatVector.broadcast(FLOATS, Float.MIN_NORMAL);
            for (int k = 0; k < whole; k += LANES) {
                max = max.max(load(x, row + k).abs());
            }
            float m = max.reduceLanes(VectorOperators.MAX);
            for (int k = whole; k < in; k++) {
                m = Math.max(m, Math.abs(x.getAtIndex(ValueLayout.JAVA_FLOAT, row + k)));
            }
            float step = m / Int8Linear.LEVELS;
            for (int k = 0; k < whole; k += LANES) {
                storeQuantised(load(x, row + k), step, q, row + k);
            }
            for (int k = whole; k < in; k++) {
                q.set(
                        ValueLayout.JAVA_BYTE,
                        row + k,
                        Int8Linear.quantised(x.getAtIndex(ValueLayout.JAVA_FLOAT, row + k), step));
            }
            steps[r] = step;
        }
    }

    /** As {@link Int8Linear#rescaleRows}. */
    static void rescaleRows(
            MemorySegment sums, float[] steps, float[] scales, float[] bias, int from, int to) {
        int out = scales.length;
        int whole = out - out % LANES;
        for (int r = from; r < to; r++) {
            long row = (long) r * out;
            float step = steps[r];
            for (int n = 0; n < whole; n += LANES) {
                rescaled(sums, row, n, step, scales, bias)
                        .intoMemorySegment(sums, (row + n) * Float.BYTES, ORDER);
            }
            for (int n = whole; n < out; n++) {
                long at = row + n;
                sums.setAtIndex(
                        ValueLayout.JAVA_FLOAT, at, rescaledOne(sums, row, n, step, scales, bias));
            }
        }
    }

    /**
     * Rows {@code [from, to)} of the int32 product {@code sums} of an intermediate layer rescaled
     * ({@code scales}, {@code bias}, {@code steps}), put through GELU and quantised per row into
     * {@code q} with steps {@code qSteps}: the same bits as {@code bert.Int8ShortPass}'s row loop
     * ({@link Int8Linear#rescale}, {@link RowKernels#gelu}, {@link Int8Linear#quantiseRow}), each
     * row through a float buffer in cache instead of three passes over the tensor's memory.
     */
    static void rescaleGeluQuantiseRows(
            MemorySegment sums,
            float[] steps,
            float[] scales,
            float[] bias,
            MemorySegment q,
            float[] qSteps,
            int from,
            int to) {
        int out = scales.length;
        int whole = out - out % LANES;
        float[] row = new float[out];
        for (int r = from; r < to; r++) {
            long first = (long) r * out;
            float step = steps[r];
            FloatVector max = FloatVector.broadcast(FLOATS, Float.MIN_NORMAL);
            for (int n = 0; n < whole; n += LANES) {
                FloatVector g = gelu(rescaled(sums, first, n, step, scales, bias));
                g.intoArray(row, n);
                max = max.max(g.abs());
            }
            float m = max.reduceLanes(VectorOperators.MAX);
            for (int n = whole; n < out; n++) {
                row[n] = RowKernels.gelu(rescaledOne(sums, first, n, step, scales, bias));
                m = Math.max(m, Math.abs(row[n]));
            }
            qSteps[r] = storeQuantisedRow(row, m, q, first);
        }
    }

    /**
     * Rows {@code [from, to)} of the int32 product {@code sums} rescaled ({@code scales}, {@code
     * bias}, {@code steps}), row {@code r·residualStride} of the float32 {@code residual} added,
     * layer-normalised ({@link RowKernels#layerNorm} with {@code gamma}, {@code beta}, {@code eps})
     * and written back over the row as float32; then quantised per row into {@code q} with steps
     * {@code qSteps} unless {@code q} is null. The same bits as {@code bert.Int8ShortPass}'s row
     * loop that ends a linear layer, each row through a buffer in cache instead of a rescale, an
     * add, a LayerNorm and a quantisation each reading and writing the whole tensor.
     */
    static void rescaleAddNormaliseRows(
            MemorySegment sums,
            float[] steps,
            float[] scales,
            float[] bias,
            MemorySegment residual,
            int residualStride,
            float[] gamma,
            float[] beta,
            float eps,
            MemorySegment q,
            float[] qSteps,
            int from,
            int to) {
        int out = scales.length;
        int whole = out - out % LANES;
        float[] row = new float[out];
        float[] partial = new float[EIGHT.length()];
        for (int r = from; r < to; r++) {
            long first = (long) r * out;
            long skip = (long) r * residualStride * out;
            float step = steps[r];
            for (int n = 0; n < whole; n += LANES) {
                rescaled(sums, first, n, step, scales, bias)
                        .add(load(residual, skip + n))
                        .intoArray(row, n);
            }
            for (int n = whole; n < out; n++) {
                row[n] =
                        rescaledOne(sums, first, n, step, scales, bias)
                                + residual.getAtIndex(ValueLayout.JAVA_FLOAT, skip + n);
            }
            float mean = mean(row, partial);
            float scale = inverseDeviation(row, mean, eps, partial);
            FloatVector max = FloatVector.broadcast(FLOATS, Float.MIN_NORMAL);
            for (int n = 0; n < whole; n += LANES) {
                FloatVector y =
                        FloatVector.fromArray(FLOATS, row, n)
                                .sub(mean)
                                .mul(scale)
                                .mul(FloatVector.fromArray(FLOATS, gamma, n))
                                .add(FloatVector.fromArray(FLOATS, beta, n));
                y.intoArray(row, n);
                y.intoMemorySegment(sums, (first + n) * Float.BYTES, ORDER);
                max = max.max(y.abs());
            }
            float m = max.reduceLanes(VectorOperators.MAX);
            for (int n = whole; n < out; n++) {
                row[n] = RowKernels.normalised(row[n], mean, scale, gamma[n], beta[n]);
                sums.setAtIndex(ValueLayout.JAVA_FLOAT, first + n, row[n]);
                m = Math.max(m, Math.abs(row[n]));
            }
            if (q != null) {
                qSteps[r] = storeQuantisedRow(row, m, q, first);
            }
        }
    }

    /**
     * {@link RowKernels#layerNorm}'s mean of {@code row}: its eight partial sums are the lanes of
     * one 8-lane vector, added in the same order, and combined as it combines them ({@code partial}
     * holds 8 floats).
     */
    private static float mean(float[] row, float[] partial) {
        int n = row.length;
        int blocks = n - n % EIGHT.length();
        FloatVector sums = FloatVector.zero(EIGHT);
        for (int k = 0; k < blocks; k += EIGHT.length()) {
            sums = sums.add(FloatVector.fromArray(EIGHT, row, k));
        }
        float rest = 0;
        for (int k = blocks; k < n; k++) {
            rest += row[k];
        }
        return (combined(sums, partial) + rest) / n;
    }

    /**
     * {@link RowKernels#layerNorm}'s {@code 1 / sqrt(variance + eps)}, the same way as {@link
     * #mean}.
     */
    private static float inverseDeviation(float[] row, float mean, float eps, float[] partial) {
        int n = row.length;
        int blocks = n - n % EIGHT.length();
        FloatVector squares = FloatVector.zero(EIGHT);
        for (int k = 0; k < blocks; k += EIGHT.length()) {
            FloatVector d = FloatVector.fromArray(EIGHT, row, k).sub(mean);
            squares = squares.add(d.mul(d));
        }
        float rest = 0;
        for (int k = blocks; k < n; k++) {
            float d = row[k] - mean;
            rest += d * d;
        }
        rest += combined(squares, partial);
        return RowKernels.inverseDeviation(rest, n, eps);
    }

    /** The lanes of an 8-lane vector added as {@link RowKernels#combined} adds partial sums. */
    private static float combined(FloatVector eight, float[] partial) {
        eight.intoArray(partial, 0);
        return RowKernels.combined(
                partial[0],
                partial[1],
                partial[2],
                partial[3],
                partial[4],
                partial[5],
                partial[6],
                partial[7]);
    }

    /**
     * {@code row} quantised with step {@code max / 127} into {@code q} from byte {@code first};
     * returns the step. {@code max} is the row's largest magnitude (at least {@link
     * Float#MIN_NORMAL}), which the callers find while they write the row.
     */
    private static float storeQuantisedRow(float[] row, float max, MemorySegment q, long first) {
        int out = row.length;
        int whole = out - out % LANES;
        float step = max / Int8Linear.LEVELS;
        for (int n = 0; n < whole; n += LANES) {
            storeQuantised(FloatVector.fromArray(FLOATS, row, n), step, q, first + n);
        }
        for (int n = whole; n < out; n++) {
            q.set(ValueLayout.JAVA_BYTE, first + n, Int8Linear.quantised(row[n], step));
        }
        return step;
    }

    /**
     * Columns {@code [n, n + LANES)} of the int32 row starting at element {@code row} of {@code
     * sums} back in float32 ({@link Int8Linear#rescaled}, lane by lane).
     */
    private static FloatVector rescaled(
            MemorySegment sums, long row, int n, float step, float[] scales, float[] bias) {
        return ((FloatVector)
                        IntVector.fromMemorySegment(INTS, sums, (row + n) * Integer.BYTES, ORDER)
                                .convert(VectorOperators.I2F, 0))
                .mul(FloatVector.fromArray(FLOATS, scales, n))
                .mul(step)
                .add(FloatVector.fromArray(FLOATS, bias, n));
    }

    /**
     * Column {@code n} of {@link #rescaled}'s row on its own ({@link Int8Linear#rescaled}), for the
     * columns past the last whole vector.
     */
    private static float rescaledOne(
            MemorySegment sums, long row, int n, float step, float[] scales, float[] bias) {
        return Int8Linear.rescaled(
                sums.getAtIndex(ValueLayout.JAVA_INT, row + n), scales[n], step, bias[n]);
    }

    /**
     * {@code x} quantised with {@code step} ({@link Int8Linear#quantised}) into byte {@code at}.
     */
    private static void storeQuantised(FloatVector x, float step, MemorySegment q, long at) {
        x.div(step)
                .add(Int8Linear.ROUND_TO_EVEN)
                .sub(Int8Linear.ROUND_TO_EVEN)
                .convertShape(VectorOperators.F2B, BYTES, 0)
                .reinterpretAsBytes()
                .intoMemorySegment(q, at, ORDER);
    }

    /** {@link RowKernels#gelu(float)} lane by lane, with the same operations in the same order. */
    static FloatVector gelu(FloatVector x) {
        FloatVector c = x.mul(RowKernels.FRAC_1_SQRT_2).max(-4f).min(4f);
        FloatVector c2 = c.mul(c);
        FloatVector p = c2.mul(RowKernels.P0).add(RowKernels.P1);
        p = p.mul(c2).add(RowKernels.P2);
        p = p.mul(c2).add(RowKernels.P3);
        p = p.mul(c2).add(RowKernels.P4);
        p = p.mul(c2).add(RowKernels.P5);
        p = p.mul(c2).add(RowKernels.P6);
        FloatVector q = c2.mul(RowKernels.Q0).add(RowKernels.Q1);
        q = q.mul(c2).add(RowKernels.Q2);
        q = q.mul(c2).add(RowKernels.Q3);
        q = q.mul(c2).add(RowKernels.Q4);
        FloatVector erf = c.mul(p).div(q);
        return x.mul(0.5f).mul(erf.add(1f));
    }

    private static FloatVector load(MemorySegment x, long index) {
        return FloatVector.fromMemorySegment(FLOATS, x, index * Float.BYTES, ORDER);
    }
}
