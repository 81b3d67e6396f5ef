package dev.cairn.embeddings.bert;

import dev.cairn.embeddings.kernels.Int8Linear;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * What a load of {@link BertEncoder} chooses: the batch size, where converted weights are kept, and
 * which arithmetic and attention paths it may take. A path the CPU or the loaded libtorch cannot
 * run stays off whatever these say (docs/embeddings.md has the table of which runs where); the
 * load's log line says what runs.
 *
 * <p>Servers and command lines take {@link #fromSystemProperties()}, the one place the module reads
 * its {@code cairn.embeddings.*} properties (as each model loads); tests start from {@link
 * #defaults()} and change one choice with a wither.
 *
 * @param batchSize texts per forward pass, {@link BertEncoder#DEFAULT_BATCH_SIZE} by default
 * @param weightsCacheDir where the converted weights are kept and read back (see {@link
 *     WeightCacheFile}); empty, the default, to convert them at every load
 * @param int8 which passes run through int8 GEMMs where the CPU has VNNI ({@value #INT8_PROPERTY});
 *     by default {@link Int8Linear#defaultUse()}: every pass without AMX, query passes with it
 * @param bf16 bfloat16 document passes where the CPU has AMX or AVX-512 BF16 and int8 does not take
 *     them ({@value #BF16_PROPERTY}, default on)
 * @param halfWeights fp16 weights for short passes where the CPU has AVX2, FMA and F16C ({@value
 *     #HALF_WEIGHTS_PROPERTY}, default on)
 * @param fusedAttention ATen's fused attention rather than separate matmul and softmax ops ({@value
 *     #FUSED_ATTENTION_PROPERTY}, default on)
 * @param vectorAttention attention in Java where the Vector API module is loaded ({@value
 *     #VECTOR_ATTENTION_PROPERTY}, default on)
 * @param microBatching concurrent callers' texts share forward passes; off, every call has its own
 *     pass in arrival order, for side-by-side measurements ({@value #MICRO_BATCHING_PROPERTY},
 *     default on)
 */
public record EncoderOptions(
        int batchSize,
        Optional<Path> weightsCacheDir,
        Int8Linear.Use int8,
        boolean bf16,
        boolean halfWeights,
        boolean fusedAttention,
        boolean vectorAttention,
        boolean microBatching) {

    /** {@code true}, {@code queries} or {@code false}; unset, the CPU decides. */
    public static final String INT8_PROPERTY = "cairn.embeddings.int8";

    /** {@code false} keeps document passes in float32. */
    public static final String BF16_PROPERTY = "cairn.embeddings.bf16";

    /** {@code false} keeps every linear layer of short passes in float32. */
    public static final String HALF_WEIGHTS_PROPERTY = "cairn.embeddings.half-weights";

    /** {@code false} computes attention with separate matmul and softmax ops. */
    public static final String FUSED_ATTENTION_PROPERTY = "cairn.embeddings.fused-attention";

    /** {@code false} keeps ATen's attention where the Vector API is loaded. */
    public static final String VECTOR_ATTENTION_PROPERTY = "cairn.embeddings.vector-attention";

    /** {@code false} gives every call its own forward pass. */
    public static final String MICRO_BATCHING_PROPERTY = "cairn.embeddings.micro-batching";

    public EncoderOptions {
        if (batchSize < 1) {
            throw new IllegalArgumentException(
                    "illegal batchSize: " + batchSize + ", must be >= 1");
        }
        Objects.requireNonNull(weightsCacheDir, "weightsCacheDir");
        Objects.requireNonNull(int8, "int8");
    }

    /** Every path this machine offers, int8 as the CPU's default, no weights cache. */
    public static EncoderOptions defaults() {
        return new EncoderOptions(
                BertEncoder.DEFAULT_BATCH_SIZE,
                Optional.empty(),
                Int8Linear.defaultUse(),
                true,
                true,
                true,
                true,
                true);
    }

    /**
     * {@link #defaults()} with each {@code cairn.embeddings.*} system property that is set applied
     * (no weights cache: the caller names the directory).
     *
     * @throws IllegalArgumentException when {@value #INT8_PROPERTY} is set to anything but {@code
     *     true}, {@code false} or {@code queries}
     */
    public static EncoderOptions fromSystemProperties() {
        return fromProperties(System::getProperty);
    }

    /**
     * As {@link #fromSystemProperties()}, reading the properties from {@code properties} (null for
     * unset). A boolean property is on unless it says {@code false}; bfloat16, fp16 weights and
     * both attentions are off for any other value than {@code true} too, as they always were.
     */
    static EncoderOptions fromProperties(UnaryOperator<String> properties) {
        return new EncoderOptions(
                BertEncoder.DEFAULT_BATCH_SIZE,
                Optional.empty(),
                int8Use(properties.apply(INT8_PROPERTY)),
                on(properties.apply(BF16_PROPERTY)),
                on(properties.apply(HALF_WEIGHTS_PROPERTY)),
                on(properties.apply(FUSED_ATTENTION_PROPERTY)),
                on(properties.apply(VECTOR_ATTENTION_PROPERTY)),
                !"false".equals(properties.apply(MICRO_BATCHING_PROPERTY)));
    }

    /** {@code Boolean.parseBoolean} with unset meaning {@code true}. */
    private static boolean on(String value) {
        return value == null || Boolean.parseBoolean(value);
    }

    private static Int8Linear.Use int8Use(String value) {
        if (value == null) {
            return Int8Linear.defaultUse();
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> Int8Linear.Use.ALL;
            case "queries" -> Int8Linear.Use.QUERIES;
            case "false" -> Int8Linear.Use.OFF;
            default ->
                    throw new IllegalArgumentException(
                            INT8_PROPERTY + " must be true, false or queries, not '" + value + "'");
        };
    }

    public EncoderOptions withBatchSize(int batchSize) {
        return new EncoderOptions(
                batchSize,
                weightsCacheDir,
                int8,
                bf16,
                halfWeights,
                fusedAttention,
                vectorAttention,
                microBatching);
    }

    public EncoderOptions withWeightsCacheDir(Path dir) {
        return new EncoderOptions(
                batchSize,
                Optional.of(dir),
                int8,
                bf16,
                halfWeights,
                fusedAttention,
                vectorAttention,
                microBatching);
    }

    public EncoderOptions withInt8(Int8Linear.Use int8) {
        return new EncoderOptions(
                batchSize,
                weightsCacheDir,
                int8,
                bf16,
                halfWeights,
                fusedAttention,
                vectorAttention,
                microBatching);
    }

    public EncoderOptions withBf16(boolean bf16) {
        return new EncoderOptions(
                batchSize,
                weightsCacheDir,
                int8,
                bf16,
                halfWeights,
                fusedAttention,
                vectorAttention,
                microBatching);
    }

    public EncoderOptions withHalfWeights(boolean halfWeights) {
        return new EncoderOptions(
                batchSize,
                weightsCacheDir,
                int8,
                bf16,
                halfWeights,
                fusedAttention,
                vectorAttention,
                microBatching);
    }

    public EncoderOptions withFusedAttention(boolean fusedAttention) {
        return new EncoderOptions(
                batchSize,
                weightsCacheDir,
                int8,
                bf16,
                halfWeights,
                fusedAttention,
                vectorAttention,
                microBatching);
    }

    public EncoderOptions withVectorAttention(boolean vectorAttention) {
        return new EncoderOptions(
                batchSize,
                weightsCacheDir,
                int8,
                bf16,
                halfWeights,
                fusedAttention,
                vectorAttention,
                microBatching);
    }

    public EncoderOptions withMicroBatching(boolean microBatching) {
        return new EncoderOptions(
                batchSize,
                weightsCacheDir,
                int8,
                bf16,
                halfWeights,
                fusedAttention,
                vectorAttention,
                microBatching);
    }
}
