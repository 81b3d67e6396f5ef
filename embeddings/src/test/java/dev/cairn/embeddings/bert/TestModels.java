package dev.cairn.embeddings.bert;

import dev.cairn.embeddings.kernels.Int8Linear;
import dev.cairn.embeddings.kernels.TorchRuntime;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Real models shared by the test classes of one JVM: loading bge-small takes seconds, so each is
 * loaded once and left for the JVM to release. {@link #bge()} and {@link #miniLm()} embed documents
 * in float32 (the reference the behaviour tests compare queries and documents against); {@link
 * #bgeInt8()} through int8 GEMMs, production's default on CPUs with VNNI and no AMX; {@link
 * #bgeBf16()} through bfloat16 GEMMs, production's default on CPUs with AMX (and with AVX-512 BF16
 * where int8 is off). Thread-safe (class initialisation).
 */
public final class TestModels {

    private TestModels() {}

    private static final class Bge {
        static final BertEncoder MODEL =
                BertEncoder.load(BertSpec.BGE_SMALL_EN_V15, withoutInt8OrBf16());
    }

    private static final class BgeInt8 {
        static final BertEncoder MODEL =
                BertEncoder.load(BertSpec.BGE_SMALL_EN_V15, int8Everywhere());
    }

    private static final class BgeBf16 {
        static final BertEncoder MODEL =
                BertEncoder.load(
                        BertSpec.BGE_SMALL_EN_V15,
                        EncoderOptions.defaults().withInt8(Int8Linear.Use.OFF));
    }

    private static final class MiniLm {
        static final BertEncoder MODEL =
                BertEncoder.load(BertSpec.ALL_MINILM_L6_V2, withoutInt8OrBf16());
    }

    /**
     * Every path but int8 and bfloat16 (the options of {@link #bge()}): float32 products, fp16
     * weights for short passes where the CPU has them.
     */
    public static EncoderOptions withoutInt8OrBf16() {
        return EncoderOptions.defaults().withInt8(Int8Linear.Use.OFF).withBf16(false);
    }

    /**
     * Int8 for every pass where the CPU has VNNI, else float32 (the options of {@link #bgeInt8()}).
     */
    static EncoderOptions int8Everywhere() {
        return EncoderOptions.defaults().withInt8(Int8Linear.Use.ALL).withBf16(false);
    }

    public static BertEncoder bge() {
        return Bge.MODEL;
    }

    /** bge-small with int8 document passes (float32 where this CPU has no VNNI). */
    static BertEncoder bgeInt8() {
        return BgeInt8.MODEL;
    }

    /** bge-small with bfloat16 document passes, production's default where the CPU has them. */
    static BertEncoder bgeBf16() {
        return BgeBf16.MODEL;
    }

    static BertEncoder miniLm() {
        return MiniLm.MODEL;
    }

    /**
     * Holds the inference thread, as a running pass would, until {@code release} opens; returns
     * once the thread is held. The returned future ends when the thread is let go.
     */
    static Future<?> holdInferenceThread(ExecutorService pool, CountDownLatch release)
            throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        Future<?> holder =
                pool.submit(
                        () ->
                                TorchRuntime.onInferenceThread(
                                        () -> {
                                            held.countDown();
                                            return release.await(60, TimeUnit.SECONDS);
                                        }));
        held.await(60, TimeUnit.SECONDS);
        return holder;
    }

    /**
     * The rows (tokens) of the one pass bge queries of one token length make together, with the bge
     * instruction as a query pass gets them; asserts that they have one length, so the pass has no
     * padding.
     */
    static long bgeQueryPassRows(BertEncoder encoder, java.util.List<String> queries) {
        long[][] ids =
                ((HfTokenizer) encoder.tokenCounter())
                        .encodeForModel(
                                queries.stream()
                                        .map(q -> BertSpec.BGE_SMALL_EN_V15.queryPrefix() + q)
                                        .toList());
        org.assertj.core.api.Assertions.assertThat(
                        java.util.Arrays.stream(ids).mapToInt(row -> row.length).distinct().count())
                .as("one length, no padding")
                .isEqualTo(1);
        return (long) ids.length * ids[0].length;
    }

    public static double cosine(float[] a, float[] b) {
        return OnnxRuntimeParityTest.cosine(a, b);
    }

    /** The largest difference between two vectors' components. */
    static float maxDifference(float[] a, float[] b) {
        float largest = 0;
        for (int i = 0; i < a.length; i++) {
            largest = Math.max(largest, Math.abs(a[i] - b[i]));
        }
        return largest;
    }
}
