package dev.cairn.embeddings.kernels;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.engine.PtNDManager;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * {@code softmax(Q·Kᵀ·scale + mask)·V} in one call of ATen's {@code scaled_dot_product_attention},
 * whose CPU kernel is flash attention: query and key blocks, an online softmax, the {@code [t, t]}
 * logits never written out whole. DJL 0.35 has no such op, so it is reached through {@link
 * NativeAten}.
 *
 * <p>Why: with BERT's 32-wide heads, attention on SciFact abstracts (~300 tokens) took about 30% of
 * a document batch in separate matmul, mask, softmax and matmul ops, though it is 13% of the
 * arithmetic: each op streamed the {@code [b, heads, t, t]} logits through memory. Fused, that
 * share fell by a quarter (see the README's embeddings section for the measured documents/s).
 *
 * <p>Thread-safe: the method handle is immutable; each call works on its caller's tensors.
 */
public final class FusedAttention {

    private static final String SDPA_SYMBOL =
            "_ZN2at4_ops28scaled_dot_product_attention4callERKNS_6TensorES4_S4_RKSt8optionalIS2_EdbS5_IdEb";

    private static Optional<FusedAttention> shared;

    private final NativeAten aten;
    private final MethodHandle sdpa;

    private FusedAttention(NativeAten aten) {
        this.aten = aten;
        var address = ValueLayout.ADDRESS;
        // (query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)
        this.sdpa =
                aten.tensorFunction(
                        SDPA_SYMBOL,
                        address,
                        address,
                        address,
                        address,
                        ValueLayout.JAVA_DOUBLE,
                        ValueLayout.JAVA_BOOLEAN,
                        NativeAten.OPTIONAL_DOUBLE,
                        ValueLayout.JAVA_BOOLEAN);
    }

    /**
     * The fused attention when the loaded libtorch offers it; empty otherwise (callers keep
     * separate ops). Bound once per process.
     */
    public static synchronized Optional<FusedAttention> supported() {
        if (shared == null) {
            shared = bind();
        }
        return shared;
    }

    private static Optional<FusedAttention> bind() {
        return NativeAten.bindKernel(
                "fused attention", () -> new FusedAttention(NativeAten.bind()));
    }

    /**
     * Attention for float32 {@code [b, heads, tq, d]} queries over {@code [b, heads, t, d]} keys
     * and values (views are fine as long as the last dimension is contiguous), with an additive
     * float32 {@code [b, 1, 1, t]} mask or none, logits multiplied by {@code scale}. The result,
     * {@code [b, heads, tq, d]}, belongs to the query's manager.
     */
    public NDArray apply(NDArray q, NDArray k, NDArray v, NDArray mask, double scale) {
        Shape shape = q.getShape();
        NativeAten.requireFloat("query", q);
        NativeAten.requireFloat("key", k);
        NativeAten.requireFloat("value", v);
        Shape keys = k.getShape();
        if (shape.dimension() != 4
                || keys.dimension() != 4
                || !v.getShape().equals(keys)
                || shape.get(0) != keys.get(0)
                || shape.get(1) != keys.get(1)
                || shape.get(3) != keys.get(3)) {
            throw new IllegalArgumentException(
                    "illegal attention: query "
                            + shape
                            + ", key "
                            + keys
                            + ", value "
                            + v.getShape()
                            + ", must be [b, heads, tq, d], [b, heads, t, d], [b, heads, t, d]");
        }
        if (mask != null) {
            NativeAten.requireFloat("mask", mask);
            long[] expected = {shape.get(0), 1, 1, keys.get(2)};
            if (!Arrays.equals(mask.getShape().getShape(), expected)) {
                throw new IllegalArgumentException(
                        "illegal attention mask: "
                                + mask.getShape()
                                + ", must be "
                                + new Shape(expected));
            }
        }
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("illegal attention scale: " + scale);
        }
        try (Arena arena = Arena.ofConfined()) {
            return aten.call(
                    sdpa,
                    (PtNDManager) q.getManager(),
                    List.of(
                            q,
                            k,
                            v,
                            NativeAten.optionalTensor(arena, mask),
                            0.0,
                            false,
                            NativeAten.optionalDouble(arena, scale),
                            false));
        }
    }
}
