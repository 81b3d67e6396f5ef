package dev.cairn.embeddings.bert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cairn.embeddings.kernels.BFloat16Linear;
import dev.cairn.embeddings.kernels.FusedAttention;
import dev.cairn.embeddings.kernels.Int8Linear;
import dev.cairn.embeddings.kernels.NativeAten;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Int8 document passes against the float32 ones of the same weights: how far quantisation moves a
 * vector, that int8 vectors live under their own model id, and that turning int8 off gives the
 * float32 encoder unchanged. On CPUs without VNNI there is no int8 path and these tests are
 * skipped.
 */
class Int8ParityTest {

    private static final long SEED = 20261126L;
    private static final int TEXTS = 300;

    /**
     * Bounds on cosine(int8, float32) over the varied texts, for every text and for the mean; the
     * float32 vectors are ONNX Runtime's ({@link ReducedPrecision#float32Vectors}). Measured:
     * bge-small mean 0.9988, lowest 0.9963; all-MiniLM-L6-v2 (mean pooling, whose one-token inputs
     * such as "?" move most) mean 0.9964, lowest 0.9814.
     */
    private static final double BGE_MIN_COSINE = 0.995;

    private static final double BGE_MIN_MEAN_COSINE = 0.998;

    private static final double MINILM_MIN_COSINE = 0.975;

    private static final double MINILM_MIN_MEAN_COSINE = 0.995;

    @BeforeAll
    static void requireInt8() {
        if (System.getProperty("os.arch").equals("amd64")
                && NativeAten.cpuFlags().contains("avx512_vnni")) {
            assertThat(Int8Linear.supported()).as("int8 linear on this VNNI CPU").isPresent();
        }
        assumeTrue(
                Int8Linear.supported().isPresent(),
                "int8 passes skipped: this CPU has no VNNI (avx512_vnni or avx_vnni); passes run"
                        + " bfloat16, fp16 weights or float32 instead (BFloat16ParityTest,"
                        + " OnnxRuntimeParityTest)");
    }

    @Test
    void int8DocumentVectorsStayCloseToFloat32OnVariedTexts() {
        ReducedPrecision.assertCloseToFloat32(
                TestModels.bgeInt8(),
                TestModels.bge(),
                VariedTexts.generate(TEXTS, SEED),
                SEED,
                BGE_MIN_COSINE,
                BGE_MIN_MEAN_COSINE);
    }

    @Test
    void int8MiniLmVectorsStayCloseToFloat32OnVariedTexts() {
        try (BertEncoder int8 =
                BertEncoder.load(BertSpec.ALL_MINILM_L6_V2, TestModels.int8Everywhere())) {
            ReducedPrecision.assertCloseToFloat32(
                    int8,
                    TestModels.miniLm(),
                    VariedTexts.generate(TEXTS, SEED),
                    SEED,
                    MINILM_MIN_COSINE,
                    MINILM_MIN_MEAN_COSINE);
        }
    }

    @Test
    void int8RanksPassagesForAQueryAsFloat32Does() {
        ReducedPrecision.assertSameNearestPassage(
                TestModels.bgeInt8(), TestModels.bge(), VariedTexts.generate(120, SEED + 1));
    }

    @Test
    void aTextsInt8VectorDoesNotDependOnItsBatch() {
        // activations are scaled per token, so padding and neighbours leave a row's product as is
        assertThat(ReducedPrecision.aloneVersusPaddedCosine(TestModels.bgeInt8()))
                .isGreaterThan(0.99999);
    }

    @Test
    void queriesGoThroughTheInt8ArithmeticOfDocuments() {
        String query = "does aspirin lower the risk of a heart attack?";
        float[] int8 = TestModels.bgeInt8().embedQuery(query);
        float[] asDocument =
                TestModels.bgeInt8()
                        .embedDocuments(List.of(BertSpec.BGE_SMALL_EN_V15.queryPrefix() + query))
                        .getFirst();
        float[] fp16 = TestModels.bge().embedQuery(query);

        assertThat(int8).containsExactly(asDocument);
        assertThat(TestModels.cosine(int8, fp16)).isGreaterThan(0.999);
        assertThat(TestModels.maxDifference(int8, fp16))
                .as("not the fp16 path")
                .isGreaterThan(1e-4f);
    }

    /**
     * Int8 on query passes only (the default on AMX CPUs): documents and the model's id are those
     * of the encoder without int8, bit for bit; a query pass, of one query or of a batch longer
     * than a short document pass, is the one every-pass int8 runs, bit for bit.
     */
    @Test
    void int8OnQueryPassesLeavesDocumentsAndTheModelIdAlone() {
        assumeTrue(
                FusedAttention.supported().isPresent(),
                "int8 short passes skipped: this libtorch has no fused attention; int8"
                        + " passes run as tensor ops on the whole product (the tests above)");
        try (BertEncoder queriesOnly =
                BertEncoder.load(
                        BertSpec.BGE_SMALL_EN_V15,
                        EncoderOptions.defaults().withInt8(Int8Linear.Use.QUERIES))) {
            BertEncoder withoutInt8 = TestModels.bgeBf16();
            assertThat(queriesOnly.exactId())
                    .isEqualTo(withoutInt8.exactId())
                    .doesNotEndWith("-int8");
            assertThat(queriesOnly.linearLayers())
                    .as("the load log's account")
                    .endsWith(", queries int8");
            if (BFloat16Linear.supported().isPresent()) {
                assertThat(queriesOnly.linearLayers()).startsWith("documents bfloat16, ");
            }

            List<String> documents = VariedTexts.generate(40, SEED + 3);
            List<float[]> ours = queriesOnly.embedDocuments(documents);
            List<float[]> reference = withoutInt8.embedDocuments(documents);
            for (int i = 0; i < documents.size(); i++) {
                assertThat(ours.get(i)).as("document %d", i).containsExactly(reference.get(i));
            }

            List<String> queries =
                    List.of(
                            "which drug lowers the risk of heart attack?",
                            "how do I rotate the signing keys",
                            "what did the on-call engineer change last night");
            for (String query : queries) {
                float[] shortPass = queriesOnly.embedQuery(query);
                assertThat(shortPass)
                        .as("short pass: %s", query)
                        .containsExactly(TestModels.bgeInt8().embedQuery(query));
                assertThat(TestModels.cosine(shortPass, TestModels.bge().embedQuery(query)))
                        .as("close to float32: %s", query)
                        .isGreaterThan(0.995);
            }

            List<String> concurrent = queryBatchAboveTheShortDocumentPass(queriesOnly);
            List<float[]> batch = queriesOnly.embedQueries(concurrent);
            List<float[]> int8Batch = TestModels.bgeInt8().embedQueries(concurrent);
            for (int i = 0; i < concurrent.size(); i++) {
                assertThat(batch.get(i)).as("query %d", i).containsExactly(int8Batch.get(i));
            }
        }
    }

    /**
     * A batch of concurrent queries with more rows than a short document pass still runs in the
     * Java pass, whose rows do not depend on each other: each query gets the vector it gets alone.
     * As tensor ops on the whole product (where such batches ran before) they differed from the
     * lone vectors by int8 rounding.
     */
    @Test
    void aQueryBatchOfAnySizeGivesEachQueryItsVectorAlone() {
        assumeTrue(
                FusedAttention.supported().isPresent(),
                "int8 query passes in Java skipped: this libtorch has no fused attention;"
                        + " query passes run as tensor ops (the tests above)");
        BertEncoder int8 = TestModels.bgeInt8();
        List<String> concurrent = queryBatchAboveTheShortDocumentPass(int8);
        List<float[]> batch = int8.embedQueries(concurrent);
        for (int i = 0; i < concurrent.size(); i++) {
            assertThat(batch.get(i))
                    .as("query %d", i)
                    .containsExactly(int8.embedQuery(concurrent.get(i)));
        }
    }

    /** 24 queries of one length, more rows together than a short document pass takes. */
    private static List<String> queryBatchAboveTheShortDocumentPass(BertEncoder encoder) {
        List<String> concurrent = new java.util.ArrayList<>();
        for (int i = 0; i < 24; i++) {
            concurrent.add("what did the team decide about release train number " + i + "?");
        }
        assertThat(TestModels.bgeQueryPassRows(encoder, concurrent))
                .as("more rows than a short document pass")
                .isGreaterThan(encoder.shortPassMaxRows());
        return concurrent;
    }

    @Test
    void int8VectorsAreCachedUnderTheirOwnExactIdAndStoredUnderTheModelsId() {
        ReducedPrecision.assertCachedUnderOwnId(TestModels.bgeInt8(), "bge-small-en-v1.5-int8");
        assertThat(TestModels.bgeInt8().linearLayers()).isEqualTo("documents int8, queries int8");
    }

    @Test
    void offGivesTheFloat32EncoderUnchangedAndTheDefaultFollowsTheCpu() {
        EncoderOptions off =
                EncoderOptions.fromProperties(
                        Map.of(
                                        EncoderOptions.INT8_PROPERTY, "false",
                                        EncoderOptions.BF16_PROPERTY, "false")
                                ::get);
        assertThat(off.int8()).isEqualTo(Int8Linear.Use.OFF);
        List<String> texts = VariedTexts.generate(24, SEED + 2);
        try (BertEncoder encoder = BertEncoder.load(BertSpec.BGE_SMALL_EN_V15, off)) {
            assertThat(encoder.exactId()).isEqualTo(encoder.id()).isEqualTo("bge-small-en-v1.5");
            assertThat(encoder.precision()).doesNotContain("int8").doesNotContain("bfloat16");
            List<float[]> a = encoder.embedDocuments(texts);
            List<float[]> b = TestModels.bge().embedDocuments(texts);
            for (int i = 0; i < texts.size(); i++) {
                assertThat(a.get(i)).as("text %d", i).containsExactly(b.get(i));
            }
        }
        java.util.Set<String> flags = NativeAten.cpuFlags();
        boolean vnni = flags.contains("avx512_vnni") || flags.contains("avx_vnni");
        boolean amx = flags.contains("amx_bf16");
        Int8Linear.Use expected =
                !vnni ? Int8Linear.Use.OFF : amx ? Int8Linear.Use.QUERIES : Int8Linear.Use.ALL;
        assertThat(Int8Linear.defaultUse())
                .as("every pass with VNNI and without AMX, query passes with AMX")
                .isEqualTo(expected);
        assertThat(EncoderOptions.fromProperties(name -> null).int8()).isEqualTo(expected);
        assertThat(EncoderOptions.defaults().int8()).isEqualTo(expected);
    }
}
