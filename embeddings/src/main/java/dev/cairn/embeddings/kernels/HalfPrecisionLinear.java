package dev.cairn.embeddings.kernels;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.engine.PtNDManager;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Linear layers on weights kept in half precision and packed for FBGEMM's fp16 GEMM: the kernel
 * widens the weights to float32 in registers and multiplies and accumulates in float32, so only the
 * weights lose precision (11-bit mantissa; the encoders' outputs stay at cosine >= 0.9999 to ONNX
 * Runtime's float32, see the parity test).
 *
 * <p>Why: a short input (a query is ~21 tokens) makes every GEMM a thin matrix times a large
 * weight, so a forward pass is bound by streaming the weights from memory (bge-small: 84 MB of
 * float32 per query, more than the 32 MB L3 cache here). Half the bytes is the speed-up.
 *
 * <p>How: DJL 0.35 exposes no fp16-weight op, but libtorch_cpu (which DJL already loaded) exports
 * ATen's {@code fbgemm_pack_gemm_matrix_fp16} and {@code fbgemm_linear_fp16_weight}, called through
 * {@link NativeAten} on the very tensors DJL owns. Nothing may throw across that boundary, so every
 * argument is checked here first, and the class is only offered where FBGEMM runs (x86-64 with
 * AVX2, FMA and F16C).
 *
 * <p>FBGEMM's fp16 GEMM runs on the calling thread only, so each weight is cut by output columns
 * into one slice per intra-op thread and the slices run at once, the first on the caller, the
 * others on helper threads; the caller should then run PyTorch itself on one thread (see {@link
 * TorchRuntime#withIntraOpThreads}) so no OpenMP worker spins on a core the helpers need.
 *
 * <p>One caller at a time (the inference thread): the slices share the process's {@link
 * SpinningHelpers}.
 */
public final class HalfPrecisionLinear {

    private static final System.Logger LOG = System.getLogger(HalfPrecisionLinear.class.getName());

    private static final String PACK_SYMBOL =
            "_ZN2at4_ops28fbgemm_pack_gemm_matrix_fp164callERKNS_6TensorE";
    private static final String LINEAR_SYMBOL =
            "_ZN2at4_ops25fbgemm_linear_fp16_weight4callERKNS_6TensorES4_S4_";

    /** c10's minimum log severity (0 info, 1 warning, 2 error), read on every log line. */
    private static final String LOG_LEVEL_SYMBOL = "FLAGS_caffe2_log_level";

    private static final int LOG_LEVEL_ERROR = 2;

    /** What FBGEMM's fp16 kernels need of the CPU ({@code fbgemmSupportedCPU} plus F16C). */
    private static final Set<String> REQUIRED_CPU_FLAGS = Set.of("avx2", "fma", "f16c");

    /** Columns below which a weight is not worth cutting for another thread. */
    static final int MIN_COLUMNS_PER_PART = 128;

    private final NativeAten aten;
    private final MethodHandle pack;
    private final MethodHandle linear;
    private final SpinningHelpers helpers;

    private HalfPrecisionLinear(NativeAten aten, SpinningHelpers helpers) {
        this.aten = aten;
        var address = ValueLayout.ADDRESS;
        this.pack = aten.tensorFunction(PACK_SYMBOL, address);
        this.linear = aten.tensorFunction(LINEAR_SYMBOL, address, address, address);
        this.helpers = helpers;
    }

    private static Optional<HalfPrecisionLinear> shared;

    /**
     * The fp16 linear when this machine and the loaded libtorch offer it; empty otherwise (callers
     * keep float32). Bound once per process, on first use, with one set of helper threads.
     */
    public static synchronized Optional<HalfPrecisionLinear> supported() {
        if (shared == null) {
            shared = bind();
        }
        return shared;
    }

    private static Optional<HalfPrecisionLinear> bind() {
        if (!NativeAten.x86With(flags -> flags.containsAll(REQUIRED_CPU_FLAGS))) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "fp16 weights off: FBGEMM needs x86-64 AVX2/FMA/F16C");
            return Optional.empty();
        }
        return NativeAten.bindKernel(
                "fp16 weights",
                () -> {
                    NativeAten aten = NativeAten.bind();
                    MemorySegment logLevel =
                            aten.c10Variable(LOG_LEVEL_SYMBOL, ValueLayout.JAVA_INT.byteSize());
                    HalfPrecisionLinear half =
                            new HalfPrecisionLinear(aten, SpinningHelpers.shared());
                    half.warmUpQuietly(logLevel);
                    return half;
                });
    }

    /**
     * A weight packed for {@link #apply}: its output columns cut into one slice per thread
     * (FBGEMM's fp16 GEMM is single-threaded; each thread then reads only its share of the
     * weights), each slice packed with its part of the bias.
     */
    public record Packed(List<NDArray> weights, List<NDArray> biases, int in, int out) {}

    /**
     * Packs a float32 {@code [out, in]} weight (a transposed view is fine: the op makes each slice
     * contiguous) and its bias into FBGEMM's fp16 layout. The slices belong to the weight's
     * manager.
     */
    public Packed pack(NDArray weight, NDArray bias) {
        NativeAten.requireFloat("weight", weight);
        NativeAten.requireFloat("bias", bias);
        long[] shape = weight.getShape().getShape();
        if (shape.length != 2 || bias.getShape().size() != shape[0]) {
            throw new IllegalArgumentException(
                    "illegal fp16 weight: shape "
                            + weight.getShape()
                            + ", bias "
                            + bias.getShape());
        }
        int out = (int) shape[0];
        int parts = helpers.parts(out, MIN_COLUMNS_PER_PART);
        List<NDArray> weights = new ArrayList<>(parts);
        List<NDArray> biases = new ArrayList<>(parts);
        for (int p = 0; p < parts; p++) {
            NDIndex columns = new NDIndex("{}:{}", out * p / parts, out * (p + 1) / parts);
            try (NDArray slice = weight.get(columns)) {
                weights.add(aten.call(pack, (PtNDManager) weight.getManager(), List.of(slice)));
            }
            biases.add(bias.get(columns).duplicate());
        }
        return new Packed(List.copyOf(weights), List.copyOf(biases), (int) shape[1], out);
    }

    /**
     * {@code input · Wᵀ + bias} for a float32 {@code [rows, in]} input, the slices computed at once
     * on the calling thread and the helper threads. The result belongs to the input's manager.
     */
    public NDArray apply(NDArray input, Packed packed) {
        NativeAten.requireLinearInput("fp16", input, packed.in(), packed.out());
        PtNDManager owner = (PtNDManager) input.getManager();
        int parts = packed.weights().size();
        if (parts == 1) {
            return slice(owner, input, packed, 0);
        }
        try (NDList slices =
                new NDList(helpers.inParts(parts, part -> slice(owner, input, packed, part)))) {
            return NDArrays.concat(slices, 1);
        }
    }

    /** Output columns of slice {@code part}: {@code input · W_partᵀ + bias_part}. */
    private NDArray slice(PtNDManager owner, NDArray input, Packed packed, int part) {
        return aten.call(
                linear,
                owner,
                List.of(input, packed.weights().get(part), packed.biases().get(part)));
    }

    /**
     * The first call of the op logs a one-time deprecation warning (it is a legacy entry point to a
     * kernel PyTorch keeps for its dynamic-quantisation path); make that first call here, at load,
     * with c10's log level raised to errors only, so servers do not print it.
     */
    private void warmUpQuietly(MemorySegment logLevel) {
        int previous = logLevel.get(ValueLayout.JAVA_INT, 0);
        logLevel.set(ValueLayout.JAVA_INT, 0, Math.max(previous, LOG_LEVEL_ERROR));
        try (var manager = TorchRuntime.engine().newBaseManager()) {
            Packed packed = pack(manager.ones(new Shape(2, 2)), manager.zeros(new Shape(2)));
            NDArray y = apply(manager.ones(new Shape(1, 2)), packed);
            if (y.getFloat(0, 0) != 2f || y.getFloat(0, 1) != 2f) {
                throw new IllegalStateException("fp16 linear self-check failed: " + y);
            }
        } finally {
            logLevel.set(ValueLayout.JAVA_INT, 0, previous);
        }
    }
}
