package dev.cairn.embeddings;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.engine.PtNDManager;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
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
 * ATen's {@code fbgemm_pack_gemm_matrix_fp16} and {@code fbgemm_linear_fp16_weight}. They are
 * called through the FFM API on the very tensors DJL owns: a DJL handle is a pointer to a heap
 * {@code at::Tensor}, which is what an {@code const at::Tensor&} parameter receives, and a returned
 * {@code at::Tensor} is constructed by the callee into memory we get from {@code operator new}, so
 * DJL's {@code delete} of the handle frees it correctly. Nothing may throw across that boundary (a
 * C++ exception through a Java frame ends the process), so every argument is checked here first,
 * and the class is only offered where FBGEMM runs (x86-64 with AVX2, FMA and F16C).
 *
 * <p>FBGEMM's fp16 GEMM runs on the calling thread only, so each weight is cut by output columns
 * into one slice per intra-op thread and the slices run at once, the first on the caller, the
 * others on helper threads; the caller should then run PyTorch itself on one thread (see {@link
 * TorchRuntime#withIntraOpThreads}) so no OpenMP worker spins on a core the helpers need.
 *
 * <p>Thread-safe: the method handles are immutable; each call works on its caller's tensors.
 */
final class HalfPrecisionLinear {

    private static final System.Logger LOG = System.getLogger(HalfPrecisionLinear.class.getName());

    /** Set to {@code false} to keep every linear layer in float32. */
    static final String ENABLED_PROPERTY = "cairn.embeddings.half-weights";

    private static final String PACK_SYMBOL =
            "_ZN2at4_ops28fbgemm_pack_gemm_matrix_fp164callERKNS_6TensorE";
    private static final String LINEAR_SYMBOL =
            "_ZN2at4_ops25fbgemm_linear_fp16_weight4callERKNS_6TensorES4_S4_";

    /** {@code ::operator new(size_t)}: DJL frees handles with {@code delete}. */
    private static final String OPERATOR_NEW_SYMBOL = "_Znwm";

    /** c10's minimum log severity (0 info, 1 warning, 2 error), read on every log line. */
    private static final String LOG_LEVEL_SYMBOL = "FLAGS_caffe2_log_level";

    private static final int LOG_LEVEL_ERROR = 2;

    /** What FBGEMM's fp16 kernels need of the CPU ({@code fbgemmSupportedCPU} plus F16C). */
    private static final Set<String> REQUIRED_CPU_FLAGS = Set.of("avx2", "fma", "f16c");

    private static final long TENSOR_BYTES = ValueLayout.ADDRESS.byteSize();

    /** Columns below which a weight is not worth cutting for another thread. */
    static final int MIN_COLUMNS_PER_PART = 128;

    private final MethodHandle operatorNew;
    private final MethodHandle pack;
    private final MethodHandle linear;
    private final List<SpinningHelper> helpers;

    private HalfPrecisionLinear(
            MethodHandle operatorNew, MethodHandle pack, MethodHandle linear, int threads) {
        this.operatorNew = operatorNew;
        this.pack = pack;
        this.linear = linear;
        List<SpinningHelper> started = new ArrayList<>();
        for (int i = 1; i < threads; i++) {
            started.add(new SpinningHelper("cairn-fp16-" + i));
        }
        this.helpers = List.copyOf(started);
    }

    private static Optional<HalfPrecisionLinear> shared;

    /**
     * The fp16 linear when this machine and the loaded libtorch offer it and {@value
     * #ENABLED_PROPERTY} is not {@code false}; empty otherwise (callers keep float32). One instance
     * (and one set of helper threads) per process, bound on first use.
     */
    static synchronized Optional<HalfPrecisionLinear> load() {
        if (shared == null) {
            TorchRuntime.engine(); // the symbols live in the libraries the engine loads
            shared = bind();
        }
        return shared;
    }

    private static Optional<HalfPrecisionLinear> bind() {
        if (!Boolean.parseBoolean(System.getProperty(ENABLED_PROPERTY, "true"))) {
            return Optional.empty();
        }
        String arch = System.getProperty("os.arch", "");
        if (!(arch.equals("amd64") || arch.equals("x86_64")) || !cpuHasFlags()) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "fp16 weights off: FBGEMM needs x86-64 AVX2/FMA/F16C");
            return Optional.empty();
        }
        try {
            Linker linker = Linker.nativeLinker();
            // already loaded by DJL: dlopen by soname returns the process's copy
            SymbolLookup torch = SymbolLookup.libraryLookup("libtorch_cpu.so", Arena.global());
            SymbolLookup c10 = SymbolLookup.libraryLookup("libc10.so", Arena.global());
            SymbolLookup cxx = SymbolLookup.libraryLookup("libstdc++.so.6", Arena.global());
            var address = ValueLayout.ADDRESS;
            MethodHandle operatorNew =
                    linker.downcallHandle(
                            find(cxx, OPERATOR_NEW_SYMBOL),
                            FunctionDescriptor.of(address, ValueLayout.JAVA_LONG));
            // a returned at::Tensor (non-trivial destructor) goes through a hidden first pointer
            MethodHandle pack =
                    linker.downcallHandle(
                            find(torch, PACK_SYMBOL), FunctionDescriptor.ofVoid(address, address));
            MethodHandle linear =
                    linker.downcallHandle(
                            find(torch, LINEAR_SYMBOL),
                            FunctionDescriptor.ofVoid(address, address, address, address));
            MemorySegment logLevel =
                    find(c10, LOG_LEVEL_SYMBOL).reinterpret(ValueLayout.JAVA_INT.byteSize());
            HalfPrecisionLinear half =
                    new HalfPrecisionLinear(operatorNew, pack, linear, TorchRuntime.threads());
            half.warmUpQuietly(logLevel);
            return Optional.of(half);
        } catch (IllegalArgumentException
                | IllegalStateException
                | UnsupportedOperationException e) {
            LOG.log(System.Logger.Level.INFO, "fp16 weights off: {0}", e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * A weight packed for {@link #apply}: its output columns cut into one slice per thread
     * (FBGEMM's fp16 GEMM is single-threaded; each thread then reads only its share of the
     * weights), each slice packed with its part of the bias.
     */
    record Packed(List<NDArray> weights, List<NDArray> biases, int in, int out) {}

    /**
     * Packs a float32 {@code [out, in]} weight (a transposed view is fine: the op makes each slice
     * contiguous) and its bias into FBGEMM's fp16 layout. The slices belong to the weight's
     * manager.
     */
    Packed pack(NDArray weight, NDArray bias) {
        requireFloat("weight", weight);
        requireFloat("bias", bias);
        long[] shape = weight.getShape().getShape();
        if (shape.length != 2 || bias.getShape().size() != shape[0]) {
            throw new IllegalArgumentException(
                    "illegal fp16 weight: shape "
                            + weight.getShape()
                            + ", bias "
                            + bias.getShape());
        }
        int out = (int) shape[0];
        int parts = Math.max(1, Math.min(helpers.size() + 1, out / MIN_COLUMNS_PER_PART));
        List<NDArray> weights = new ArrayList<>(parts);
        List<NDArray> biases = new ArrayList<>(parts);
        for (int p = 0; p < parts; p++) {
            NDIndex columns = new NDIndex("{}:{}", out * p / parts, out * (p + 1) / parts);
            try (NDArray slice = weight.get(columns)) {
                weights.add(call(pack, (PtNDManager) weight.getManager(), slice));
            }
            biases.add(bias.get(columns).duplicate());
        }
        return new Packed(List.copyOf(weights), List.copyOf(biases), (int) shape[1], out);
    }

    /**
     * {@code input · Wᵀ + bias} for a float32 {@code [rows, in]} input, the slices computed at once
     * on the calling thread and the helper threads. The result belongs to the input's manager.
     */
    NDArray apply(NDArray input, Packed packed) {
        requireFloat("input", input);
        long[] shape = input.getShape().getShape();
        if (shape.length != 2 || shape[1] != packed.in()) {
            throw new IllegalArgumentException(
                    "illegal fp16 linear: input "
                            + Arrays.toString(shape)
                            + ", weight ["
                            + packed.out()
                            + ", "
                            + packed.in()
                            + "]");
        }
        PtNDManager owner = (PtNDManager) input.getManager();
        int parts = packed.weights().size();
        if (parts == 1) {
            return slice(owner, input, packed, 0);
        }
        for (int p = 1; p < parts; p++) {
            int part = p;
            helpers.get(p - 1).start(() -> slice(owner, input, packed, part));
        }
        NDList slices = new NDList(parts);
        try {
            slices.add(slice(owner, input, packed, 0));
        } finally {
            for (int p = 1; p < parts; p++) {
                slices.add(helpers.get(p - 1).<NDArray>await());
            }
        }
        try (slices) {
            return NDArrays.concat(slices, 1);
        }
    }

    /** Output columns of slice {@code part}: {@code input · W_partᵀ + bias_part}. */
    private NDArray slice(PtNDManager owner, NDArray input, Packed packed, int part) {
        return call(linear, owner, input, packed.weights().get(part), packed.biases().get(part));
    }

    private NDArray call(MethodHandle op, PtNDManager owner, NDArray... args) {
        try {
            MemorySegment result = (MemorySegment) operatorNew.invokeExact(TENSOR_BYTES);
            Object[] handles = new Object[args.length + 1];
            handles[0] = result;
            for (int i = 0; i < args.length; i++) {
                handles[i + 1] = MemorySegment.ofAddress(((PtNDArray) args[i]).getHandle());
            }
            op.invokeWithArguments(handles);
            return new PtNDArray(owner, result.address());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("fp16 linear failed", e);
        }
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

    private static void requireFloat(String name, NDArray array) {
        if (array.getDataType() != DataType.FLOAT32 || !(array instanceof PtNDArray)) {
            throw new IllegalArgumentException(
                    "illegal " + name + ": " + array.getDataType() + ", must be a float32 tensor");
        }
    }

    private static MemorySegment find(SymbolLookup lookup, String symbol) {
        return lookup.find(symbol)
                .orElseThrow(() -> new IllegalStateException("libtorch lacks " + symbol));
    }

    private static boolean cpuHasFlags() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("flags")) {
                    Set<String> flags =
                            new HashSet<>(
                                    Arrays.asList(
                                            line.substring(line.indexOf(':') + 1)
                                                    .trim()
                                                    .split("\\s+")));
                    return flags.containsAll(REQUIRED_CPU_FLAGS);
                }
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
