package dev.cairn.embeddings.kernels;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.DataType;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.engine.PtNDManager;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * ATen operators that DJL 0.35 does not expose, called through the FFM API in the libtorch DJL
 * already loaded, on the very tensors DJL owns.
 *
 * <p>Why this works: a DJL handle is a pointer to a heap {@code at::Tensor}, which is what a {@code
 * const at::Tensor&} parameter receives; an {@code at::Tensor} result (a class with a non-trivial
 * destructor) is returned through a hidden first pointer, so the callee constructs it into memory
 * we get from {@code operator new}, and DJL's {@code delete} of the handle frees it correctly. A
 * {@code const std::optional<at::Tensor>&} is a pointer to the tensor's one pointer field followed
 * by an engaged flag (libstdc++'s layout), built per call by {@link #optionalTensor}. Nothing may
 * throw across the boundary (a C++ exception through a Java frame ends the process), so the classes
 * using this check every argument before the call.
 *
 * <p>Thread-safe: the lookups and method handles are immutable.
 */
public final class NativeAten {

    private static final System.Logger LOG = System.getLogger(NativeAten.class.getName());

    /** {@code ::operator new(size_t)}: DJL frees handles with {@code delete}. */
    private static final String OPERATOR_NEW_SYMBOL = "_Znwm";

    private static final String OMP_SET_NUM_THREADS_SYMBOL = "omp_set_num_threads";

    /** {@code sizeof(at::Tensor)}: one {@code intrusive_ptr<TensorImpl>}. */
    private static final long TENSOR_BYTES = ValueLayout.ADDRESS.byteSize();

    /** {@code std::optional<at::Tensor>}: the tensor, then the engaged flag, padded to 16. */
    private static final MemoryLayout OPTIONAL_TENSOR =
            MemoryLayout.structLayout(
                    ValueLayout.ADDRESS, ValueLayout.JAVA_BOOLEAN, MemoryLayout.paddingLayout(7));

    /** {@code std::optional<double>} passed by value: trivially copyable, so in registers. */
    static final MemoryLayout OPTIONAL_DOUBLE =
            MemoryLayout.structLayout(
                    ValueLayout.JAVA_DOUBLE,
                    ValueLayout.JAVA_BOOLEAN,
                    MemoryLayout.paddingLayout(7));

    private final Linker linker = Linker.nativeLinker();
    private final SymbolLookup torch;
    private final SymbolLookup c10;
    private final MethodHandle operatorNew;

    /** {@code omp_set_num_threads}, or null where libtorch was built without OpenMP. */
    private final MethodHandle ompSetNumThreads;

    private NativeAten(SymbolLookup torch, SymbolLookup c10, MethodHandle operatorNew) {
        this.torch = torch;
        this.c10 = c10;
        this.operatorNew = operatorNew;
        // libtorch's own OpenMP runtime: a lookup on libtorch_cpu also searches what it links
        this.ompSetNumThreads =
                torch.find(OMP_SET_NUM_THREADS_SYMBOL)
                        .map(
                                f ->
                                        linker.downcallHandle(
                                                f, FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT)))
                        .orElse(null);
    }

    private static NativeAten shared;

    /**
     * Binds to the libraries the PyTorch engine loaded (loading it first), once per process; every
     * class calling ATen this way shares the binding.
     *
     * @throws IllegalArgumentException if a library cannot be opened
     * @throws IllegalStateException if a symbol is missing
     */
    static synchronized NativeAten bind() {
        if (shared != null) {
            return shared;
        }
        TorchRuntime.engine(); // the symbols live in the libraries the engine loads
        // already loaded by DJL: dlopen by soname returns the process's copy
        SymbolLookup torch = SymbolLookup.libraryLookup("libtorch_cpu.so", Arena.global());
        SymbolLookup c10 = SymbolLookup.libraryLookup("libc10.so", Arena.global());
        SymbolLookup cxx = SymbolLookup.libraryLookup("libstdc++.so.6", Arena.global());
        MethodHandle operatorNew =
                Linker.nativeLinker()
                        .downcallHandle(
                                find(cxx, OPERATOR_NEW_SYMBOL),
                                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        shared = new NativeAten(torch, c10, operatorNew);
        return shared;
    }

    /**
     * A libtorch function returning an {@code at::Tensor}: the handle takes the result slot first
     * (see {@link #call}), then {@code parameters}.
     */
    MethodHandle tensorFunction(String symbol, MemoryLayout... parameters) {
        MemoryLayout[] all = new MemoryLayout[parameters.length + 1];
        all[0] = ValueLayout.ADDRESS;
        System.arraycopy(parameters, 0, all, 1, parameters.length);
        return linker.downcallHandle(find(torch, symbol), FunctionDescriptor.ofVoid(all));
    }

    /**
     * A libtorch {@code out=} function: it writes into its last tensor argument and returns a
     * reference to it (a pointer, which callers may ignore).
     */
    MethodHandle outFunction(String symbol, MemoryLayout... parameters) {
        return linker.downcallHandle(
                find(torch, symbol), FunctionDescriptor.of(ValueLayout.ADDRESS, parameters));
    }

    /**
     * Sets the calling thread's OpenMP team size to one: a kernel it calls then runs on this thread
     * alone (OpenMP keeps the setting per thread). For helper threads running a slice of a pass
     * beside the caller's, which must not fork a team onto cores the others use. Nothing to do
     * where libtorch has no OpenMP.
     */
    void runOpenMpOnOneThread() {
        if (ompSetNumThreads == null) {
            return;
        }
        try {
            ompSetNumThreads.invokeExact(1);
        } catch (Throwable e) {
            throw new IllegalStateException("omp_set_num_threads failed", e);
        }
    }

    /** A global variable of libc10, {@code bytes} long. */
    MemorySegment c10Variable(String symbol, long bytes) {
        return find(c10, symbol).reinterpret(bytes);
    }

    /**
     * Calls {@code function} with a fresh result slot and {@code arguments} (tensors become their
     * handles; other values pass as they are) and wraps the result for {@code owner}.
     */
    NDArray call(MethodHandle function, PtNDManager owner, List<?> arguments) {
        try {
            MemorySegment result = (MemorySegment) operatorNew.invokeExact(TENSOR_BYTES);
            Object[] values = new Object[arguments.size() + 1];
            values[0] = result;
            for (int i = 0; i < arguments.size(); i++) {
                Object a = arguments.get(i);
                values[i + 1] = a instanceof NDArray array ? handle(array) : a;
            }
            function.invokeWithArguments(values);
            return new PtNDArray(owner, result.address());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("libtorch call failed", e);
        }
    }

    /**
     * A tensor's memory, valid while it lives: its own where it is contiguous (so writes reach the
     * tensor), else a contiguous copy's, which DJL attaches to the tensor's manager.
     */
    public static MemorySegment memory(NDArray array) {
        return MemorySegment.ofBuffer(array.toByteBuffer(true));
    }

    /** The {@code at::Tensor*} behind a DJL tensor. */
    static MemorySegment handle(NDArray array) {
        return MemorySegment.ofAddress(((PtNDArray) array).getHandle());
    }

    /**
     * A {@code std::optional<at::Tensor>} in {@code arena}: engaged with a copy of {@code tensor}'s
     * pointer (no reference taken: the callee only reads it through a const reference while {@code
     * tensor} is alive), or empty when {@code tensor} is null.
     */
    static MemorySegment optionalTensor(Arena arena, NDArray tensor) {
        MemorySegment optional = arena.allocate(OPTIONAL_TENSOR);
        if (tensor != null) {
            MemorySegment impl =
                    handle(tensor).reinterpret(TENSOR_BYTES).get(ValueLayout.ADDRESS, 0);
            optional.set(ValueLayout.ADDRESS, 0, impl);
            optional.set(ValueLayout.JAVA_BOOLEAN, TENSOR_BYTES, true);
        }
        return optional;
    }

    /** A {@code std::optional<double>} holding {@code value}, allocated in {@code arena}. */
    static MemorySegment optionalDouble(Arena arena, double value) {
        MemorySegment optional = arena.allocate(OPTIONAL_DOUBLE);
        optional.set(ValueLayout.JAVA_DOUBLE, 0, value);
        optional.set(ValueLayout.JAVA_BOOLEAN, ValueLayout.JAVA_DOUBLE.byteSize(), true);
        return optional;
    }

    /**
     * Checks an argument before it crosses into C++, where a failed check would end the process.
     */
    static void requireFloat(String name, NDArray array) {
        if (array.getDataType() != DataType.FLOAT32 || !(array instanceof PtNDArray)) {
            throw new IllegalArgumentException(
                    "illegal " + name + ": " + array.getDataType() + ", must be a float32 tensor");
        }
    }

    /**
     * Checks that {@code input} is a float32 {@code [rows, in]} matrix for a {@code kind} linear
     * layer whose weight is {@code [out, in]}.
     */
    static void requireLinearInput(String kind, NDArray input, int in, int out) {
        requireFloat("input", input);
        long[] shape = input.getShape().getShape();
        if (shape.length != 2 || shape[1] != in) {
            throw new IllegalArgumentException(
                    "illegal "
                            + kind
                            + " linear: input "
                            + Arrays.toString(shape)
                            + ", weight ["
                            + out
                            + ", "
                            + in
                            + "]");
        }
    }

    private static MemorySegment find(SymbolLookup lookup, String symbol) {
        return lookup.find(symbol)
                .orElseThrow(() -> new IllegalStateException("libtorch lacks " + symbol));
    }

    /**
     * Whether this JVM runs on x86-64 and its CPU's flags pass {@code flags}: FBGEMM's and oneDNN's
     * kernels reached here are x86 code.
     */
    static boolean x86With(Predicate<Set<String>> flags) {
        String arch = System.getProperty("os.arch", "");
        return (arch.equals("amd64") || arch.equals("x86_64")) && flags.test(cpuFlags());
    }

    /**
     * {@code binder}'s kernel, or empty where the loaded libtorch lacks a symbol or the kernel
     * fails its self-check; the reason is logged once as "{@code what} off: ...", and callers keep
     * the plain DJL ops.
     */
    static <T> Optional<T> bindKernel(String what, Supplier<T> binder) {
        try {
            return Optional.of(binder.get());
        } catch (IllegalArgumentException
                | IllegalStateException
                | UnsupportedOperationException e) {
            LOG.log(System.Logger.Level.INFO, "{0} off: {1}", what, e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * The instruction-set flags of this CPU as Linux lists them ({@code /proc/cpuinfo}), empty
     * where that file cannot be read: the kernels reached here are only offered where they run.
     */
    public static Set<String> cpuFlags() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("flags")) {
                    return Set.copyOf(
                            Arrays.asList(
                                    line.substring(line.indexOf(':') + 1).trim().split("\\s+")));
                }
            }
            return Set.of();
        } catch (IOException | RuntimeException e) {
            return Set.of();
        }
    }
}
