package dev.cairn.embeddings.kernels;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.engine.PtNDManager;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Linear layers as int8 GEMMs: weights quantised once per output channel, activations on every call
 * per row (one scale per token), both symmetric to [-127, 127]; the integer product runs in ATen's
 * {@code _int_mm}, which on CPUs with VNNI is oneDNN's {@code gemm_s8s8s32}, and is scaled back to
 * float32 with the bias added.
 *
 * <p>Formula, for an input row {@code x} and output channel {@code n} (Jacob et al., 2018,
 * "Quantization and Training of Neural Networks for Efficient Integer-Arithmetic-Only Inference",
 * arXiv:1712.05877, with zero points 0): {@code s_x = max|x| / 127}, {@code q_x = round(x / s_x)},
 * {@code s_n = max|W_n| / 127}, {@code q_n = round(W_n / s_n)}; {@code y_n = s_x · s_n · (q_x ·
 * q_n) + b_n}. The integer dot product is exact, so a text's vector does not depend on the other
 * texts of its batch (a per-tensor activation scale, as ONNX Runtime's dynamic quantisation uses,
 * would make it depend on them and lets one outlier token coarsen every other).
 *
 * <p>Why: a document pass is bound by arithmetic (76% of its time in MKL's float32 GEMM); VNNI
 * multiplies four int8 pairs where float32 FMA multiplies one.
 *
 * <p>How: DJL 0.35 has no int8 matrix product; {@code at::_ops::_int_mm} takes two tensors and
 * returns one, so it is called through {@link NativeAten} on DJL's own tensors, with every argument
 * checked first. The per-row quantisation and the rescaling are Java loops over the tensors'
 * memory, one pass each (see {@link #apply}).
 *
 * <p>A short pass ({@code bert.Int8ShortPass}: a query or a few) cuts the product by output columns
 * instead ({@link SliceProducts}), one int8 GEMM per core on a contiguous slice of the weight, as
 * {@link HalfPrecisionLinear} does for fp16: oneDNN's own threading of so thin a product, and
 * PyTorch's OpenMP team around the pass's small ops, cost more than they share.
 *
 * <p>One caller at a time (the inference thread): the loops and slices share the process's {@link
 * SpinningHelpers}.
 *
 * <p>Why about 780 lines: quantisation, packing, the native product and the rescaling share the
 * packed weights and their layout.
 */
public final class Int8Linear {

    private static final System.Logger LOG = System.getLogger(Int8Linear.class.getName());

    /** Which passes run through int8 GEMMs. */
    public enum Use {
        /** None: bfloat16, fp16 or float32 throughout. */
        OFF,
        /**
         * Short query passes only ({@code bert.Int8ShortPass}): documents keep bfloat16 or float32,
         * so the stored vectors and the model's exact id do not change.
         */
        QUERIES,
        /** Every pass, documents included: the model's exact id gets its int8 suffix. */
        ALL;

        public boolean documents() {
            return this == ALL;
        }
    }

    private static final String INT_MM_SYMBOL = "_ZN2at4_ops7_int_mm4callERKNS_6TensorES4_";

    private static final String INT_MM_OUT_SYMBOL =
            "_ZN2at4_ops11_int_mm_out4callERKNS_6TensorES4_RS2_";

    private static final String VIEW_DTYPE_SYMBOL =
            "_ZN2at4_ops10view_dtype4callERKNS_6TensorEN3c1010ScalarTypeE";

    /** {@code c10::ScalarType::Float}. */
    private static final byte FLOAT = 6;

    /**
     * Either flag gives oneDNN its int8 dot-product instruction; without one {@code _int_mm} would
     * still run, but slower than float32, so the path is not offered.
     */
    private static final Set<String> VNNI_FLAGS = Set.of("avx512_vnni", "avx_vnni");

    /** Largest quantised magnitude (symmetric, so -128 is never used). */
    static final float LEVELS = 127f;

    /**
     * 1.5 · 2^23: adding it to a float of magnitude below 2^22 and subtracting it again rounds to
     * the nearest integer, ties to even, as {@link Math#rint} does, but in float arithmetic C2
     * vectorises ({@code rint} goes through double). Quantised values are within ±127.
     */
    static final float ROUND_TO_EVEN = 0x1.8p23f;

    private static Optional<Int8Linear> supported;

    /** Fewest rows handed to another core: a hand-off costs microseconds, a row well under one. */
    static final int MIN_ROWS_PER_PART = 32;

    private final NativeAten aten;
    private final MethodHandle intMm;
    private final MethodHandle intMmOut;
    private final MethodHandle viewDtype;

    /**
     * The quantisation and rescaling loops split by rows across them ({@link VectorRows} where the
     * Vector API is loaded).
     */
    private final SpinningHelpers helpers;

    private Int8Linear(NativeAten aten, SpinningHelpers helpers) {
        this.aten = aten;
        this.intMm = aten.tensorFunction(INT_MM_SYMBOL, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
        this.intMmOut =
                aten.outFunction(
                        INT_MM_OUT_SYMBOL,
                        ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS);
        this.viewDtype =
                aten.tensorFunction(VIEW_DTYPE_SYMBOL, ValueLayout.ADDRESS, ValueLayout.JAVA_BYTE);
        this.helpers = helpers;
    }

    /**
     * Every pass where VNNI is and AMX is not, where int8 was measured faster than the other
     * document paths (AMD Zen 4, 2 cores, SciFact abstracts: 17.8 documents/s against 12.8 in
     * bfloat16). Short query passes only on AMX CPUs, where documents run faster on bfloat16 tiles
     * (Intel Xeon, 2 cores: 11.8-12.5 documents/s against 9.8-10.8) but a query takes half the time
     * of the fp16 path (docs/embeddings.md). Its vectors are those the quality gate was run on
     * (SciFact and LoCoMo within 0.005 of float32).
     */
    public static Use defaultUse() {
        if (!cpuOffersIt()) {
            return Use.OFF;
        }
        return BFloat16Linear.cpuHasMatrixTiles() ? Use.QUERIES : Use.ALL;
    }

    /**
     * Whether this CPU has VNNI, judged without PyTorch: the weights' int8 packs are made while
     * PyTorch starts. {@link #supported} can still come back empty where the loaded libtorch lacks
     * the op or fails its self-check; the packs then go unused.
     */
    public static boolean cpuOffersIt() {
        return NativeAten.x86With(flags -> flags.stream().anyMatch(VNNI_FLAGS::contains));
    }

    /**
     * The int8 linear when this is x86-64 with VNNI and the loaded libtorch exports {@code
     * _int_mm}; bound and checked once per process. Whether a model uses it, and for which passes,
     * is its options' choice ({@link Use}).
     */
    public static synchronized Optional<Int8Linear> supported() {
        if (supported == null) {
            supported = bind();
        }
        return supported;
    }

    private static Optional<Int8Linear> bind() {
        if (!cpuOffersIt()) {
            LOG.log(System.Logger.Level.INFO, "int8 linear off: needs x86-64 with VNNI");
            return Optional.empty();
        }
        return NativeAten.bindKernel(
                "int8 linear",
                () -> {
                    Int8Linear int8 = new Int8Linear(NativeAten.bind(), SpinningHelpers.shared());
                    int8.selfCheck();
                    return int8;
                });
    }

    /**
     * A weight quantised for {@link #apply}: {@code weight} is int8 {@code [in, out]} (the right
     * operand of the product, contiguous), {@code scales} the step of each of the {@code out}
     * output channels and {@code bias} their bias, as Java arrays because the rescaling loop reads
     * them on every call; {@code columnSlices} the same weight cut by output columns into one
     * contiguous slice per core, for {@link SliceProducts}.
     */
    public record Packed(
            NDArray weight,
            float[] scales,
            float[] bias,
            int in,
            int out,
            List<NDArray> columnSlices) {
        public Packed {
            if (weight.getDataType() != DataType.INT8
                    || !weight.getShape().equals(new Shape(in, out))
                    || scales.length != out
                    || bias.length != out
                    || columnSlices.isEmpty()) {
                throw new IllegalArgumentException(
                        "illegal int8 weight: "
                                + weight.getDataType()
                                + " "
                                + weight.getShape()
                                + ", "
                                + scales.length
                                + " scales, "
                                + bias.length
                                + " biases, "
                                + columnSlices.size()
                                + " slices, must be int8 ["
                                + in
                                + ", "
                                + out
                                + "] and "
                                + out
                                + " each");
            }
            columnSlices = List.copyOf(columnSlices);
        }
    }

    /**
     * Packs an int8 {@code [in, out]} weight with its scales and bias, cutting its column slices
     * for {@link SliceProducts} (they belong to the weight's manager).
     */
    public Packed pack(NDArray weight, float[] scales, float[] bias) {
        long[] shape = weight.getShape().getShape();
        if (shape.length != 2) {
            throw new IllegalArgumentException("illegal int8 weight: shape " + weight.getShape());
        }
        int in = (int) shape[0];
        int out = (int) shape[1];
        // cut as the fp16 weights are
        int parts = helpers.parts(out, HalfPrecisionLinear.MIN_COLUMNS_PER_PART);
        List<NDArray> slices = new ArrayList<>(parts);
        for (int p = 0; p < parts; p++) {
            NDIndex columns = new NDIndex(":, {}:{}", out * p / parts, out * (p + 1) / parts);
            try (NDArray view = weight.get(columns)) {
                slices.add(view.duplicate());
            }
        }
        return new Packed(weight, scales, bias, in, out, slices);
    }

    /**
     * A weight quantised per output channel: {@code weight} int8 {@code [in, out]} row-major,
     * {@code scales} the float32 step of each output channel.
     */
    public record Quantised(byte[] weight, float[] scales) {}

    /**
     * Quantises the row-major {@code [in, out]} float32 matrix {@code inOut} (the transposed {@code
     * torch.nn.Linear} weight, as the ONNX export stores it) per output channel. Pure Java, so it
     * runs while PyTorch starts, and its result is kept with the converted weights.
     */
    public static Quantised quantise(float[] inOut, int in, int out) {
        if ((long) in * out != inOut.length) {
            throw new IllegalArgumentException(
                    "illegal int8 weight: "
                            + inOut.length
                            + " values for ["
                            + in
                            + ", "
                            + out
                            + "]");
        }
        float[] steps = new float[out];
        for (int k = 0; k < in; k++) {
            for (int n = 0; n < out; n++) {
                steps[n] = Math.max(steps[n], Math.abs(inOut[k * out + n]));
            }
        }
        for (int n = 0; n < out; n++) {
            steps[n] = steps[n] > 0 ? steps[n] / LEVELS : 1f;
        }
        byte[] quantised = new byte[inOut.length];
        for (int k = 0; k < in; k++) {
            for (int n = 0; n < out; n++) {
                quantised[k * out + n] = (byte) Math.round(inOut[k * out + n] / steps[n]);
            }
        }
        return new Quantised(quantised, steps);
    }

    /**
     * {@code input · Wᵀ + bias} for a contiguous float32 {@code [rows, in]} input, through the int8
     * product. The result belongs to the input's manager; intermediates are freed before returning.
     *
     * <p>The per-row quantisation and the rescaling are Java loops over the tensors' memory, one
     * pass each, row by row through arrays small enough for the L1 cache (which C2 vectorises): as
     * DJL ops they were eight passes over the activations and cost more than the integer product
     * saved.
     */
    public NDArray apply(NDArray input, Packed packed) {
        NativeAten.requireLinearInput("int8", input, packed.in(), packed.out());
        try (QuantisedRows quantised = quantised(input)) {
            return apply(quantised, packed);
        }
    }

    /**
     * {@code GELU(input·Wᵀ + b)} quantised per row, ready for the next int8 linear ({@link
     * #apply(QuantisedRows, Packed)}), in one pass over the int32 product (see {@link
     * VectorRows#rescaleGeluQuantiseRows}); only where {@link VectorApi#loaded()}.
     */
    public QuantisedRows geluQuantised(QuantisedRows input, Packed packed) {
        requireWidth(input, packed);
        QuantisedRows result =
                new QuantisedRows(input.tensor.getManager(), input.rows, packed.out());
        try (NDArray product = product(input.tensor, packed.weight())) {
            MemorySegment sums = NativeAten.memory(product);
            helpers.byRows(
                    input.rows,
                    MIN_ROWS_PER_PART,
                    (from, to) ->
                            VectorRows.rescaleGeluQuantiseRows(
                                    sums,
                                    input.steps,
                                    packed.scales(),
                                    packed.bias(),
                                    result.memory,
                                    result.steps,
                                    from,
                                    to));
            return result;
        } catch (RuntimeException | Error e) {
            result.close();
            throw e;
        }
    }

    /**
     * {@code LayerNorm(input·Wᵀ + b + residual)} with {@code gamma}, {@code beta} and {@code eps},
     * as float32 {@code [rows, out]}, input row {@code r} adding row {@code r·residualStride} of
     * the float32 {@code residual}; also quantised per row into {@code next} unless that is null.
     * One pass over the int32 product, whose memory the result is (see {@link
     * VectorRows#rescaleAddNormaliseRows}); only where {@link VectorApi#loaded()}.
     */
    public NDArray addNormalised(
            QuantisedRows input,
            Packed packed,
            NDArray residual,
            int residualStride,
            float[] gamma,
            float[] beta,
            float eps,
            QuantisedRows next) {
        requireWidth(input, packed);
        NativeAten.requireFloat("residual", residual);
        long[] shape = residual.getShape().getShape();
        if (shape.length != 2
                || shape[1] != packed.out()
                || (input.rows > 0 && shape[0] <= (long) (input.rows - 1) * residualStride)) {
            throw new IllegalArgumentException(
                    "illegal residual "
                            + Arrays.toString(shape)
                            + " for "
                            + input.rows
                            + " rows of "
                            + packed.out()
                            + " every "
                            + residualStride);
        }
        if (gamma.length != packed.out() || beta.length != packed.out()) {
            throw new IllegalArgumentException("illegal LayerNorm width: " + gamma.length);
        }
        if (next != null && (next.rows != input.rows || next.width != packed.out())) {
            throw new IllegalArgumentException(
                    "illegal quantised rows: [" + next.rows + ", " + next.width + "]");
        }
        MemorySegment skip = NativeAten.memory(residual);
        NDArray product = product(input.tensor, packed.weight());
        try {
            MemorySegment sums = NativeAten.memory(product);
            helpers.byRows(
                    input.rows,
                    MIN_ROWS_PER_PART,
                    (from, to) ->
                            VectorRows.rescaleAddNormaliseRows(
                                    sums,
                                    input.steps,
                                    packed.scales(),
                                    packed.bias(),
                                    skip,
                                    residualStride,
                                    gamma,
                                    beta,
                                    eps,
                                    next == null ? null : next.memory,
                                    next == null ? null : next.steps,
                                    from,
                                    to));
            return asFloat(product);
        } finally {
            product.close();
        }
    }

    /** {@code input·Wᵀ + b} for activations already quantised, as float32 {@code [rows, out]}. */
    public NDArray apply(QuantisedRows input, Packed packed) {
        requireWidth(input, packed);
        try (NDArray product = product(input.tensor, packed.weight())) {
            return rescaled(product, input.steps, packed);
        }
    }

    private static void requireWidth(QuantisedRows input, Packed packed) {
        if (input.width != packed.in()) {
            throw new IllegalArgumentException(
                    "illegal int8 linear: input width " + input.width + ", weight " + packed.in());
        }
    }

    /**
     * The contiguous float32 {@code [rows, width]} {@code input} quantised per row into a new int8
     * tensor of its manager, with each row's step.
     */
    public QuantisedRows quantised(NDArray input) {
        NativeAten.requireFloat("input", input);
        long[] shape = input.getShape().getShape();
        if (shape.length != 2) {
            throw new IllegalArgumentException(
                    "illegal rows to quantise: " + Arrays.toString(shape));
        }
        int width = Math.toIntExact(shape[1]);
        QuantisedRows result =
                new QuantisedRows(input.getManager(), Math.toIntExact(shape[0]), width);
        try {
            MemorySegment x = NativeAten.memory(input);
            MemorySegment q = result.memory;
            float[] steps = result.steps;
            helpers.byRows(
                    result.rows,
                    MIN_ROWS_PER_PART,
                    VectorApi.loaded()
                            ? (from, to) -> VectorRows.quantiseRows(x, q, steps, width, from, to)
                            : (from, to) -> quantiseRows(x, q, steps, width, from, to));
            return result;
        } catch (RuntimeException | Error e) {
            result.close();
            throw e;
        }
    }

    /**
     * The int32 {@code product} of quantised rows with steps {@code steps} brought back to float32
     * with the bias added, in place (no new 4-byte-per-element buffer to fault in, and each row is
     * read and written while in cache); returns the product's memory viewed as float32.
     */
    private NDArray rescaled(NDArray product, float[] steps, Packed packed) {
        MemorySegment sums = NativeAten.memory(product);
        helpers.byRows(
                steps.length,
                MIN_ROWS_PER_PART,
                VectorApi.loaded()
                        ? (from, to) ->
                                VectorRows.rescaleRows(
                                        sums, steps, packed.scales(), packed.bias(), from, to)
                        : (from, to) ->
                                rescaleRows(sums, steps, packed.scales(), packed.bias(), from, to));
        return asFloat(product);
    }

    /** The int32 {@code product}'s memory viewed as float32, once its rows hold floats. */
    private NDArray asFloat(NDArray product) {
        return aten.call(viewDtype, (PtNDManager) product.getManager(), List.of(product, FLOAT));
    }

    /**
     * Rows {@code [from, to)} of the float32 {@code [steps.length, in]} matrix {@code x} quantised
     * into the int8 matrix {@code q}: {@code steps[r] = max|x_r| / 127}, {@code q_r = round(x_r /
     * steps[r])}.
     */
    static void quantiseRows(
            MemorySegment x, MemorySegment q, float[] steps, int in, int from, int to) {
        float[] row = new float[in];
        byte[] quantised = new byte[in];
        for (int r = from; r < to; r++) {
            MemorySegment.copy(x, ValueLayout.JAVA_FLOAT, (long) r * in * Float.BYTES, row, 0, in);
            steps[r] = quantiseRow(row, 0, in, quantised);
            MemorySegment.copy(quantised, 0, q, ValueLayout.JAVA_BYTE, (long) r * in, in);
        }
    }

    /**
     * {@code x[offset..offset+n)} quantised into {@code q[0..n)}: returns {@code step = max|x| /
     * 127}, {@code q = round(x / step)}, ties to even.
     */
    static float quantiseRow(float[] x, int offset, int n, byte[] q) {
        float max = Float.MIN_NORMAL;
        for (int k = 0; k < n; k++) {
            max = Math.max(max, Math.abs(x[offset + k]));
        }
        float step = max / LEVELS;
        for (int k = 0; k < n; k++) {
            q[k] = quantised(x[offset + k], step);
        }
        return step;
    }

    /** {@code x} quantised with {@code step}: {@code round(x / step)}, ties to even. */
    static byte quantised(float x, float step) {
        return (byte) (int) ((x / step + ROUND_TO_EVEN) - ROUND_TO_EVEN);
    }

    /** One int32 sum back in float32: {@code acc · scale · step + bias}, in that order. */
    static float rescaled(int acc, float scale, float step, float bias) {
        return acc * scale * step + bias;
    }

    /**
     * Rows {@code [from, to)} of the int32 product {@code sums} brought back to float32 in place,
     * each row {@code r}: {@code y_rn = acc_rn · scales_n · steps_r + bias_n}.
     */
    static void rescaleRows(
            MemorySegment sums, float[] steps, float[] scales, float[] bias, int from, int to) {
        int out = scales.length;
        int[] acc = new int[out];
        float[] row = new float[out];
        for (int r = from; r < to; r++) {
            long offset = (long) r * out * Integer.BYTES;
            MemorySegment.copy(sums, ValueLayout.JAVA_INT, offset, acc, 0, out);
            rescale(acc, out, steps[r], scales, bias, 0, row);
            MemorySegment.copy(row, 0, sums, ValueLayout.JAVA_FLOAT, offset, out);
        }
    }

    /**
     * One row's int32 sums {@code acc[0..columns)} of output columns {@code [first, first +
     * columns)} back in float32 into {@code y[first..first+columns)}: {@code y_n = acc_n · scales_n
     * · step + bias_n}.
     */
    static void rescale(
            int[] acc,
            int columns,
            float step,
            float[] scales,
            float[] bias,
            int first,
            float[] y) {
        for (int n = 0; n < columns; n++) {
            y[first + n] = rescaled(acc[n], scales[first + n], step, bias[first + n]);
        }
    }

    /**
     * Rows of activations quantised per row into an int8 {@code [rows, width]} tensor made once,
     * with each row's step: a short pass writes them from its Java loops, one row at a time, and
     * {@link SliceProducts} multiplies them.
     */
    public static final class QuantisedRows implements AutoCloseable {
        final NDArray tensor;
        final int rows;
        final int width;
        final float[] steps;
        final MemorySegment memory;

        public QuantisedRows(NDManager manager, int rows, int width) {
            this.tensor = manager.create(new Shape(rows, width), DataType.INT8);
            this.rows = rows;
            this.width = width;
            this.steps = new float[rows];
            this.memory = NativeAten.memory(tensor);
        }

        /** The int8 {@code [rows, width]} tensor, for a caller that manages its scope. */
        public NDArray tensor() {
            return tensor;
        }

        /**
         * Row {@code r} set to {@code x[offset..offset+width)} quantised (see {@link
         * #quantiseRow}); {@code scratch} holds at least {@code width} bytes.
         */
        public void set(int r, float[] x, int offset, byte[] scratch) {
            steps[r] = quantiseRow(x, offset, width, scratch);
            MemorySegment.copy(scratch, 0, memory, ValueLayout.JAVA_BYTE, (long) r * width, width);
        }

        /** Frees the int8 tensor. */
        @Override
        public void close() {
            tensor.close();
        }
    }

    /**
     * The int8 products of one {@link QuantisedRows} with the column slices of weights of one
     * shape, written into int32 tensors made once: a short pass makes one per weight shape and runs
     * it once per layer, so a layer's product is one libtorch call per core ({@code _int_mm.out})
     * and no tensor is made or wrapped per call. Every argument's shape was checked when the
     * tensors were made and the weight's is checked on every {@link #run} (in Java), so the calls
     * never get what libtorch would reject.
     */
    public final class SliceProducts {
        private final QuantisedRows input;
        private final int out;

        /** Where each slice's columns start in the whole product, then {@code out}. */
        private final int[] columnStarts;

        private final MemorySegment[] sumHandles;
        private final MemorySegment[] sums;

        /** Products of {@code input} with weights shaped as {@code shape}, on its manager. */
        public SliceProducts(QuantisedRows input, Packed shape) {
            if (shape.in() != input.width) {
                throw new IllegalArgumentException(
                        "illegal int8 product: input width "
                                + input.width
                                + ", weight ["
                                + shape.in()
                                + ", "
                                + shape.out()
                                + "]");
            }
            List<NDArray> slices = shape.columnSlices();
            this.input = input;
            this.out = shape.out();
            this.columnStarts = new int[slices.size() + 1];
            this.sumHandles = new MemorySegment[slices.size()];
            this.sums = new MemorySegment[slices.size()];
            NDManager manager = input.tensor.getManager();
            for (int p = 0; p < slices.size(); p++) {
                int columns = Math.toIntExact(slices.get(p).getShape().get(1));
                columnStarts[p + 1] = columnStarts[p] + columns;
                NDArray sum = manager.create(new Shape(input.rows, columns), DataType.INT32);
                sumHandles[p] = NativeAten.handle(sum);
                sums[p] = NativeAten.memory(sum);
            }
        }

        /** Multiplies the input's current rows by {@code weight}'s slices, one per core at once. */
        public void run(Packed weight) {
            List<NDArray> slices = weight.columnSlices();
            if (weight.in() != input.width || weight.out() != out || slices.size() != sums.length) {
                throw new IllegalArgumentException(
                        "illegal int8 product: weight ["
                                + weight.in()
                                + ", "
                                + weight.out()
                                + "] in "
                                + slices.size()
                                + " slices, made for ["
                                + input.width
                                + ", "
                                + out
                                + "] in "
                                + sums.length);
            }
            MemorySegment a = NativeAten.handle(input.tensor);
            // each helper makes one libtorch call and asks DJL nothing: two helpers fetching
            // shapes through DJL's JNI at once once got a shape without dimensions
            helpers.inParts(
                    sums.length,
                    p -> {
                        if (p > 0) {
                            aten.runOpenMpOnOneThread();
                        }
                        multiply(a, NativeAten.handle(slices.get(p)), sumHandles[p]);
                        return null;
                    });
        }

        private void multiply(MemorySegment a, MemorySegment b, MemorySegment result) {
            try {
                MemorySegment unused = (MemorySegment) intMmOut.invokeExact(a, b, result);
            } catch (Throwable e) {
                throw new IllegalStateException("int8 product failed", e);
            }
        }

        /**
         * Row {@code r} of the last product brought back to float32 with {@code weight}'s bias into
         * {@code y[0..out)}: {@code y_n = acc_rn · scales_n · steps_r + bias_n}; {@code acc} holds
         * at least one slice's columns.
         */
        public void rescaleRow(int r, Packed weight, float[] y, int[] acc) {
            float step = input.steps[r];
            for (int p = 0; p < sums.length; p++) {
                int start = columnStarts[p];
                int columns = columnStarts[p + 1] - start;
                long offset = (long) r * columns * Integer.BYTES;
                MemorySegment.copy(sums[p], ValueLayout.JAVA_INT, offset, acc, 0, columns);
                rescale(acc, columns, step, weight.scales(), weight.bias(), start, y);
            }
        }
    }

    /** {@code a · b} of int8 {@code [m, k]} and {@code [k, n]}, as int32 {@code [m, n]}. */
    NDArray product(NDArray a, NDArray b) {
        long[] left = a.getShape().getShape();
        long[] right = b.getShape().getShape();
        if (!(a instanceof PtNDArray)
                || !(b instanceof PtNDArray)
                || a.getDataType() != DataType.INT8
                || b.getDataType() != DataType.INT8
                || left.length != 2
                || right.length != 2
                || left[1] != right[0]) {
            throw new IllegalArgumentException(
                    "illegal int8 product: "
                            + a.getDataType()
                            + " "
                            + a.getShape()
                            + " x "
                            + b.getDataType()
                            + " "
                            + b.getShape()
                            + ", must be int8 [m, k] x [k, n]");
        }
        return aten.call(intMm, (PtNDManager) a.getManager(), List.of(a, b));
    }

    /** A product with a known answer, so a libtorch whose op misbehaves is never used. */
    private void selfCheck() {
        try (NDManager manager = TorchRuntime.engine().newBaseManager()) {
            NDArray a = manager.create(new byte[] {1, -2, 3, 4, 5, -6}, new Shape(2, 3));
            NDArray b = manager.create(new byte[] {7, 8, -9, 10, 11, 12}, new Shape(3, 2));
            int[] c = product(a, b).toIntArray();
            int[] expected = {
                1 * 7 - 2 * -9 + 3 * 11,
                1 * 8 - 2 * 10 + 3 * 12,
                4 * 7 + 5 * -9 - 6 * 11,
                4 * 8 + 5 * 10 - 6 * 12
            };
            if (!Arrays.equals(c, expected)) {
                throw new IllegalStateException(
                        "int8 product self-check failed: " + Arrays.toString(c));
            }
        }
    }
}
