package dev.cairn.embeddings.kernels;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.engine.PtNDManager;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Linear layers in bfloat16: the input is rounded to bfloat16 on every call, multiplied by a
 * bfloat16 copy of the weight with float32 accumulation, and the product returned in float32;
 * everything between the linear layers (residuals, layer norms, attention, GELU) stays float32.
 *
 * <p>Why: a document pass is bound by arithmetic (three quarters of its time in float32 GEMMs), and
 * on CPUs with AMX (Sapphire Rapids and later) or AVX-512 BF16, oneDNN's bfloat16 matrix product
 * runs on the tile or dot-product units: on this machine's 2 cores 650-740 GFLOP/s against MKL's
 * float32 290-305 GFLOP/s for the encoder's shapes at 336 to 4,096 rows, the two conversions
 * included (docs/embeddings.md). bfloat16 keeps float32's exponent, so nothing overflows; it keeps
 * 8 bits of mantissa, so a product's relative error is about 0.4% and a text's vector stays at
 * cosine about 0.999 to its float32 one (the parity test bounds it).
 *
 * <p>How: DJL 0.35 aborts the JVM on bfloat16 tensors ({@code toType(BFLOAT16)}), so the
 * conversions and the product are ATen's {@code to.dtype} and {@code linear}, called through {@link
 * NativeAten} on DJL's own handles; the bfloat16 tensors never reach DJL's Java side except as
 * handles it frees. Every argument is checked before the call (a C++ exception would end the
 * process).
 *
 * <p>Thread-safe: the method handles are immutable; each call works on its caller's tensors.
 */
public final class BFloat16Linear {

    private static final System.Logger LOG = System.getLogger(BFloat16Linear.class.getName());

    private static final String TO_DTYPE_SYMBOL =
            "_ZN2at4_ops8to_dtype4callERKNS_6TensorEN3c1010ScalarTypeEbbSt8optionalINS5_12MemoryFormatEE";
    private static final String LINEAR_SYMBOL =
            "_ZN2at4_ops6linear4callERKNS_6TensorES4_RKSt8optionalIS2_E";

    /** {@code c10::ScalarType} codes. */
    private static final byte FLOAT = 6;

    private static final byte BFLOAT16 = 15;

    /** {@code std::optional<c10::MemoryFormat>} by value: the format byte, then the flag. */
    private static final MemoryLayout OPTIONAL_MEMORY_FORMAT =
            MemoryLayout.structLayout(ValueLayout.JAVA_BYTE, ValueLayout.JAVA_BOOLEAN);

    private static final String AMX_BF16_FLAG = "amx_bf16";

    /**
     * Either gives oneDNN a bfloat16 product in hardware; without them it would emulate one, slower
     * than float32, so the path is not offered.
     */
    private static final Set<String> BF16_FLAGS = Set.of(AMX_BF16_FLAG, "avx512_bf16");

    private static Optional<BFloat16Linear> supported;

    private final NativeAten aten;
    private final MethodHandle toDtype;
    private final MethodHandle linear;

    /** An empty {@code std::optional<MemoryFormat>}: the converted tensor keeps its strides. */
    private final MemorySegment keepFormat;

    private final boolean matrixTiles;

    private BFloat16Linear(NativeAten aten) {
        this.aten = aten;
        var address = ValueLayout.ADDRESS;
        this.toDtype =
                aten.tensorFunction(
                        TO_DTYPE_SYMBOL,
                        address,
                        ValueLayout.JAVA_BYTE,
                        ValueLayout.JAVA_BOOLEAN,
                        ValueLayout.JAVA_BOOLEAN,
                        OPTIONAL_MEMORY_FORMAT);
        this.linear = aten.tensorFunction(LINEAR_SYMBOL, address, address, address);
        this.keepFormat = Arena.global().allocate(OPTIONAL_MEMORY_FORMAT);
        this.matrixTiles = cpuHasMatrixTiles();
    }

    /** Whether this CPU has AMX's bfloat16 tiles (Sapphire Rapids and later). */
    static boolean cpuHasMatrixTiles() {
        return NativeAten.x86With(flags -> flags.contains(AMX_BF16_FLAG));
    }

    /**
     * Whether oneDNN runs these products on AMX tiles rather than AVX-512 BF16's dot products
     * alone. Only on tiles do they beat the fp16 slices for a batch of a few concurrent queries
     * (see {@code BertEncoder.shortPassMaxRows}); document passes gain either way (Zen 4, 2 cores:
     * 14.1 SciFact documents/s in bfloat16 against 9.0 in float32).
     */
    public boolean onMatrixTiles() {
        return matrixTiles;
    }

    /**
     * The bfloat16 linear, when this is x86-64 with AMX or AVX-512 BF16 and the loaded libtorch
     * passes a known product; bound once per process.
     */
    public static synchronized Optional<BFloat16Linear> supported() {
        if (supported == null) {
            supported = bind();
        }
        return supported;
    }

    private static Optional<BFloat16Linear> bind() {
        if (!NativeAten.x86With(flags -> flags.stream().anyMatch(BF16_FLAGS::contains))) {
            LOG.log(System.Logger.Level.INFO, "bfloat16 linear off: needs AMX or AVX-512 BF16");
            return Optional.empty();
        }
        return NativeAten.bindKernel(
                "bfloat16 linear",
                () -> {
                    BFloat16Linear bf16 = new BFloat16Linear(NativeAten.bind());
                    bf16.selfCheck();
                    return bf16;
                });
    }

    /**
     * A weight and bias in bfloat16 for {@link #apply}; {@code weight} is {@code [out, in]} with
     * the strides of the float32 weight it was made from; {@code optionalBias} is the {@code
     * std::optional<at::Tensor>} {@code linear} takes, made once for every call (it points at
     * {@code bias}, which lives as long as this record's manager).
     */
    public record Packed(
            NDArray weight, NDArray bias, MemorySegment optionalBias, int in, int out) {}

    /**
     * Copies a float32 {@code [out, in]} weight (a transposed view is fine: the copy keeps its
     * strides) and its bias to bfloat16. The copies belong to the weight's manager.
     */
    public Packed pack(NDArray weight, NDArray bias) {
        NativeAten.requireFloat("weight", weight);
        NativeAten.requireFloat("bias", bias);
        long[] shape = weight.getShape().getShape();
        if (shape.length != 2 || bias.getShape().dimension() != 1 || bias.size() != shape[0]) {
            throw new IllegalArgumentException(
                    "illegal bfloat16 weight: shape "
                            + weight.getShape()
                            + ", bias "
                            + bias.getShape());
        }
        NDArray rounded = convert(bias, BFLOAT16);
        return new Packed(
                convert(weight, BFLOAT16),
                rounded,
                NativeAten.optionalTensor(Arena.ofAuto(), rounded),
                (int) shape[1],
                (int) shape[0]);
    }

    /**
     * {@code input · Wᵀ + bias} for a float32 {@code [rows, in]} input, as float32. The result
     * belongs to the input's manager; the bfloat16 intermediates are freed before returning.
     */
    public NDArray apply(NDArray input, Packed packed) {
        NativeAten.requireLinearInput("bfloat16", input, packed.in(), packed.out());
        try (NDArray rounded = convert(input, BFLOAT16);
                NDArray product =
                        aten.call(
                                linear,
                                (PtNDManager) input.getManager(),
                                List.of(rounded, packed.weight(), packed.optionalBias()))) {
            return convert(product, FLOAT);
        }
    }

    private NDArray convert(NDArray array, byte scalarType) {
        return aten.call(
                toDtype,
                (PtNDManager) array.getManager(),
                List.of(array, scalarType, false, false, keepFormat));
    }

    /** A product with a known answer, so a libtorch whose ops misbehave is never used. */
    private void selfCheck() {
        try (NDManager manager = TorchRuntime.engine().newBaseManager()) {
            // small integers and halves are exact in bfloat16
            NDArray weight = manager.create(new float[] {1, -2, 3, 0.5f, 4, -1}, new Shape(2, 3));
            NDArray bias = manager.create(new float[] {0.5f, -1});
            NDArray input = manager.create(new float[] {2, 1, -1, 1, 0, 2}, new Shape(2, 3));
            float[] y = apply(input, pack(weight, bias)).toFloatArray();
            float[] expected = {
                2 - 2 - 3 + 0.5f, 1 + 4 + 1 - 1, 1 + 6 + 0.5f, 0.5f - 2 - 1,
            };
            if (!Arrays.equals(y, expected)) {
                throw new IllegalStateException(
                        "bfloat16 linear self-check failed: " + Arrays.toString(y));
            }
        }
    }
}
