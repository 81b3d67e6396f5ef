package dev.cairn.embeddings.bert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cairn.embeddings.kernels.BFloat16Linear;
import dev.cairn.embeddings.kernels.Int8Linear;
import dev.cairn.embeddings.kernels.NativeAten;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * bfloat16 document passes against the float32 ones of the same weights: how far the rounding moves
 * a vector, that bfloat16 vectors live under their own model id, that queries keep their fp16 path,
 * and that turning bfloat16 off gives the float32 encoder unchanged. On CPUs without AMX or AVX-512
 * BF16 there is no bfloat16 path and these tests are skipped.
 */
class BFloat16ParityTest {

    private static final long SEED = 20261126L;
    private static final int TEXTS = 300;

    /**
     * Bounds on cosine(bfloat16, float32) over the varied texts, for every text and the mean (the
     * float32 vectors are ONNX Runtime's, {@link ReducedPrecision#float32Vectors}). The rounding
     * error of a vector is small and a cosine's loss is its square: measured over these texts
     * bge-small mean 0.999987, lowest 0.999923; all-MiniLM-L6-v2 mean 0.999978, lowest 0.999932
     * (int8: 0.9988 / 0.9963 and 0.9964 / 0.9815).
     */
    private static final double BGE_MIN_COSINE = 0.9995;

    private static final double BGE_MIN_MEAN_COSINE = 0.9999;

    private static final double MINILM_MIN_COSINE = 0.999;

    private static final double MINILM_MIN_MEAN_COSINE = 0.9998;

    @BeforeAll
    static void requireBf16() {
        if (System.getProperty("os.arch").equals("amd64")
                && NativeAten.cpuFlags().contains("amx_bf16")) {
            assertThat(BFloat16Linear.supported())
                    .as("bfloat16 linear on this AMX CPU")
                    .isPresent();
        }
        assumeTrue(
                BFloat16Linear.supported().isPresent(),
                "bfloat16 passes skipped: this CPU has neither AMX (amx_bf16) nor AVX-512 BF16;"
                        + " document passes run int8 or float32 instead (Int8ParityTest,"
                        + " OnnxRuntimeParityTest)");
    }

    @Test
    void bf16DocumentVectorsStayCloseToFloat32OnVariedTexts() {
        ReducedPrecision.assertCloseToFloat32(
                TestModels.bgeBf16(),
                TestModels.bge(),
                VariedTexts.generate(TEXTS, SEED),
                SEED,
                BGE_MIN_COSINE,
                BGE_MIN_MEAN_COSINE);
    }

    @Test
    void bf16MiniLmVectorsStayCloseToFloat32OnVariedTexts() {
        try (BertEncoder bf16 =
                BertEncoder.load(
                        BertSpec.ALL_MINILM_L6_V2,
                        EncoderOptions.defaults().withInt8(Int8Linear.Use.OFF))) {
            ReducedPrecision.assertCloseToFloat32(
                    bf16,
                    TestModels.miniLm(),
                    VariedTexts.generate(TEXTS, SEED),
                    SEED,
                    MINILM_MIN_COSINE,
                    MINILM_MIN_MEAN_COSINE);
        }
    }

    @Test
    void bf16RanksPassagesForAQueryAsFloat32Does() {
        ReducedPrecision.assertSameNearestPassage(
                TestModels.bgeBf16(), TestModels.bge(), VariedTexts.generate(120, SEED + 1));
    }

    @Test
    void aTextsBf16VectorBarelyDependsOnItsBatch() {
        // rounding is per value; only the GEMM's blocking (and so its summation order) changes
        assertThat(ReducedPrecision.aloneVersusPaddedCosine(TestModels.bgeBf16()))
                .isGreaterThan(0.99999);
    }

    @Test
    void aLoneQueryKeepsItsHalfPrecisionPath() {
        String query = "does aspirin lower the risk of a heart attack?";
        assertThat(TestModels.bgeBf16().embedQuery(query))
                .containsExactly(TestModels.bge().embedQuery(query));
    }

    @Test
    void aLargeBatchOfQueriesRunsInBf16CloseToFloat32() {
        // 64 queries of ~20 tokens are far above the fp16 path's rows: bfloat16 in one model,
        // float32
        // in the other
        List<String> queries = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            queries.add("which drug lowers the risk of heart attack number " + i + " in adults?");
        }
        List<float[]> bf16 = TestModels.bgeBf16().embedQueries(queries);
        List<float[]> float32 = TestModels.bge().embedQueries(queries);
        boolean anyDiffers = false;
        for (int i = 0; i < queries.size(); i++) {
            assertThat(TestModels.cosine(bf16.get(i), float32.get(i)))
                    .as("query %d", i)
                    .isGreaterThan(0.9995);
            anyDiffers |= !java.util.Arrays.equals(bf16.get(i), float32.get(i));
        }
        assertThat(anyDiffers).as("the batch went through bfloat16").isTrue();
    }

    @Test
    void bf16VectorsAreCachedUnderTheirOwnExactIdAndStoredUnderTheModelsId() {
        ReducedPrecision.assertCachedUnderOwnId(TestModels.bgeBf16(), "bge-small-en-v1.5-bf16");
    }

    @Test
    void onByDefaultAndOffGivesTheFloat32EncoderUnchanged() {
        // int8, on by default on some CPUs, would take the document passes bfloat16 leaves
        assertThat(EncoderOptions.defaults().bf16()).as("on by default").isTrue();
        assertThat(TestModels.bgeBf16().exactId())
                .as("the defaults without int8")
                .isEqualTo("bge-small-en-v1.5-bf16");
        EncoderOptions off =
                EncoderOptions.fromProperties(
                        Map.of(
                                        EncoderOptions.BF16_PROPERTY, "false",
                                        EncoderOptions.INT8_PROPERTY, "false")
                                ::get);
        assertThat(off.bf16()).isFalse();
        List<String> texts = VariedTexts.generate(24, SEED + 2);
        try (BertEncoder encoder = BertEncoder.load(BertSpec.BGE_SMALL_EN_V15, off)) {
            assertThat(encoder.exactId()).isEqualTo(encoder.id()).isEqualTo("bge-small-en-v1.5");
            List<float[]> a = encoder.embedDocuments(texts);
            List<float[]> b = TestModels.bge().embedDocuments(texts);
            for (int i = 0; i < texts.size(); i++) {
                assertThat(a.get(i)).as("text %d", i).containsExactly(b.get(i));
            }
        }
    }
}
