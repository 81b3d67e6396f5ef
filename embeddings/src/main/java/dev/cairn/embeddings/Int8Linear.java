package dev.cairn.embeddings;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.engine.PtNDManager;
import java.lang.invoke.MethodHandle;
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
 * checked first. The per-row quantisation and the rescaling are DJL tensor ops.
 *
 * <p>Thread-safe: the method handle is immutable; each call works on its caller's tensors.
 */
final class Int8Linear {

    private static final System.Logger LOG = System.getLogger(Int8Linear.class.getName());

    /** Set to {@code true} to run document passes through int8 GEMMs. */
    static final String ENABLED_PROPERTY = "cairn.embeddings.int8";

    /**
     * Appended to a model's id when its document vectors come from this path: cache keys and the
     * model recorded with stored vectors then never confuse them with float32 ones.
     */
    static final String MODEL_ID_SUFFIX = "-int8";

    private static final String INT_MM_SYMBOL = "_ZN2at4_ops7_int_mm4callERKNS_6TensorES4_";

    /**
     * Either flag gives oneDNN its int8 dot-product instruction; without one {@code _int_mm} would
     * still run, but slower than float32, so the path is not offered.
     */
    private static final Set<String> VNNI_FLAGS = Set.of("avx512_vnni", "avx_vnni");

    /** Largest quantised magnitude (symmetric, so -128 is never used). */
    static final float LEVELS = 127f;

    private static final int[] ROWS = {1};

    private static Optional<Int8Linear> supported;

    private final NativeAten aten;
    private final MethodHandle intMm;

    private Int8Linear(NativeAten aten) {
        this.aten = aten;
        var address = java.lang.foreign.ValueLayout.ADDRESS;
        this.intMm = aten.tensorFunction(INT_MM_SYMBOL, address, address);
    }

    /**
     * The int8 linear when {@value #ENABLED_PROPERTY} is {@code true} and this machine offers it
     * (see {@link #supported()}); empty otherwise (callers keep float32). Off by default: the
     * quality gate holds (SciFact and LoCoMo within 0.005 of float32), but on an idle machine a
     * document pass is slower than float32 (9.5-9.7 against 11.2-11.4 documents/s: the per-token
     * quantisation and rescaling cost as much as the integer product saves), see
     * docs/embeddings.md.
     */
    static Optional<Int8Linear> load() {
        if (!enabled()) {
            return Optional.empty();
        }
        return supported();
    }

    /**
     * Whether {@link #load} is to offer the int8 linear, judged without PyTorch (the property and
     * the CPU): the weights' int8 packs are made while PyTorch starts. {@link #load} can still come
     * back empty where the loaded libtorch lacks the op or fails its self-check; the packs then go
     * unused.
     */
    static boolean wanted() {
        return enabled() && cpuOffersIt();
    }

    private static boolean enabled() {
        return Boolean.parseBoolean(System.getProperty(ENABLED_PROPERTY, "false"));
    }

    private static boolean cpuOffersIt() {
        return NativeAten.x86With(flags -> flags.stream().anyMatch(VNNI_FLAGS::contains));
    }

    /**
     * The int8 linear whatever {@value #ENABLED_PROPERTY} says, when this is x86-64 with VNNI and
     * the loaded libtorch exports {@code _int_mm}; bound and checked once per process.
     */
    static synchronized Optional<Int8Linear> supported() {
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
                    Int8Linear int8 = new Int8Linear(NativeAten.bind());
                    int8.selfCheck();
                    return int8;
                });
    }

    /**
     * A weight quantised for {@link #apply}: {@code weight} is int8 {@code [in, out]} (the right
     * operand of the product, contiguous), {@code scales} the float32 {@code [out]} step of each
     * output channel, {@code bias} float32 {@code [out]}.
     */
    record Packed(NDArray weight, NDArray scales, NDArray bias, int in, int out) {
        Packed {
            NativeAten.requireFloat("scales", scales);
            NativeAten.requireFloat("bias", bias);
            if (weight.getDataType() != DataType.INT8
                    || !weight.getShape().equals(new Shape(in, out))
                    || scales.getShape().size() != out
                    || bias.getShape().size() != out) {
                throw new IllegalArgumentException(
                        "illegal int8 weight: "
                                + weight.getDataType()
                                + " "
                                + weight.getShape()
                                + ", scales "
                                + scales.getShape()
                                + ", bias "
                                + bias.getShape()
                                + ", must be int8 ["
                                + in
                                + ", "
                                + out
                                + "] and ["
                                + out
                                + "]");
            }
        }
    }

    /**
     * A weight quantised per output channel: {@code weight} int8 {@code [in, out]} row-major,
     * {@code scales} the float32 step of each output channel.
     */
    record Quantised(byte[] weight, float[] scales) {}

    /**
     * Quantises the row-major {@code [in, out]} float32 matrix {@code inOut} (the transposed {@code
     * torch.nn.Linear} weight, as the ONNX export stores it) per output channel. Pure Java, so it
     * runs while PyTorch starts, and its result is kept with the converted weights.
     */
    static Quantised quantise(float[] inOut, int in, int out) {
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
     * {@code input · Wᵀ + bias} for a float32 {@code [rows, in]} input, through the int8 product.
     * The result belongs to the input's manager; intermediates are freed before returning.
     */
    NDArray apply(NDArray input, Packed packed) {
        NativeAten.requireLinearInput("int8", input, packed.in(), packed.out());
        NDArray out;
        try (NDScope scope = new NDScope()) {
            NDArray step =
                    input.max(ROWS, true)
                            .maximum(input.min(ROWS, true).neg())
                            .maximum(Float.MIN_NORMAL)
                            .divi(LEVELS);
            NDArray quantised = input.div(step).round().toType(DataType.INT8, false);
            NDArray product = product(quantised, packed.weight());
            out = product.mul(packed.scales()).muli(step).addi(packed.bias());
            NDScope.unregister(out);
        }
        return out;
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
