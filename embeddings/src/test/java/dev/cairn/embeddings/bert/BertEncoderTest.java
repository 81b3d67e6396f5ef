package dev.cairn.embeddings.bert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.embeddings.Pooling;
import dev.cairn.embeddings.kernels.BFloat16Linear;
import dev.cairn.embeddings.kernels.HalfPrecisionLinear;
import dev.cairn.embeddings.kernels.Int8Linear;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BertEncoderTest {

    private static final String PASSAGE =
            "Aspirin irreversibly inhibits cyclooxygenase, reducing thromboxane synthesis.";

    @Test
    void describesBgeSmall() {
        BertEncoder bge = TestModels.bge();
        assertThat(bge.id()).isEqualTo("bge-small-en-v1.5");
        assertThat(bge.dimensions()).isEqualTo(384);
        assertThat(bge.maxTokens()).isEqualTo(512);
        assertThat(bge.embedDocuments(List.of(PASSAGE)).getFirst()).hasSize(384);
    }

    /**
     * Every precision an encoder of bge-small runs in stores the one id; the ids reduced precision
     * stored before issue 43 are its former ids, which the store's migrations rewrite.
     */
    @Test
    void everyPrecisionStoresTheModelsIdAndTheOldSuffixedIdsAreItsFormerIds() {
        String id = "bge-small-en-v1.5";
        assertThat(List.of(TestModels.bge(), TestModels.bgeBf16(), TestModels.bgeInt8()))
                .allSatisfy(encoder -> assertThat(encoder.id()).isEqualTo(id));
        assertThat(EmbeddingModels.formerIds(id))
                .containsExactly("bge-small-en-v1.5-int8", "bge-small-en-v1.5-bf16");
        assertThat(EmbeddingModels.formerIds("all-MiniLM-L6-v2"))
                .containsExactly("all-MiniLM-L6-v2-int8", "all-MiniLM-L6-v2-bf16");
        assertThat(EmbeddingModels.formerIds("my-torchscript-model")).isEmpty();
        for (BertEncoder reduced : List.of(TestModels.bgeBf16(), TestModels.bgeInt8())) {
            if (!reduced.exactId().equals(id)) {
                assertThat(EmbeddingModels.formerIds(id)).contains(reduced.exactId());
                assertThat(reduced.precision()).isNotEqualTo(TestModels.bge().precision());
            }
        }
    }

    @Test
    void returnsUnitLengthVectors() {
        for (BertEncoder model : List.of(TestModels.bge(), TestModels.miniLm())) {
            for (float[] v : model.embedDocuments(VariedTexts.generate(12, 7L))) {
                double norm = 0;
                for (float x : v) {
                    norm += x * x;
                }
                assertThat(Math.sqrt(norm)).as(model.id()).isCloseTo(1.0, within(1e-5));
            }
        }
    }

    @Test
    void prefixesBgeQueriesWithTheRetrievalInstruction() {
        BertEncoder bge = TestModels.bge();
        float[] query = bge.embedQuery(PASSAGE);
        float[] prefixedDocument =
                bge.embedDocuments(List.of(BertSpec.BGE_QUERY_PREFIX + PASSAGE)).getFirst();
        float[] plainDocument = bge.embedDocuments(List.of(PASSAGE)).getFirst();
        assertThat(TestModels.cosine(query, prefixedDocument)).isGreaterThan(0.99999);
        assertThat(TestModels.cosine(query, plainDocument)).isLessThan(0.999);
    }

    @Test
    void embedsMiniLmQueriesAndDocumentsAlike() {
        BertEncoder miniLm = TestModels.miniLm();
        assertThat(
                        TestModels.cosine(
                                miniLm.embedQuery(PASSAGE),
                                miniLm.embedDocuments(List.of(PASSAGE)).getFirst()))
                .isGreaterThan(0.99999);
    }

    @Test
    void poolingIgnoresPaddingOfShorterTextsInABatch() {
        String longer = "word ".repeat(200);
        for (BertEncoder model : List.of(TestModels.bge(), TestModels.miniLm())) {
            float[] alone = model.embedDocuments(List.of(PASSAGE)).getFirst();
            List<String> batch = new ArrayList<>(List.of(PASSAGE));
            for (int i = 0; i < 3; i++) {
                batch.add(longer + i);
            }
            // Same batch forced by a batch-size-4 encoder would pad PASSAGE; the budget may also
            // split it, so compare through the token ids with explicit padding instead.
            long[][] ids = ((HfTokenizer) model.tokenCounter()).encodeForModel(batch);
            float[] padded = model.embedTokenIds(ids).getFirst();
            assertThat(TestModels.cosine(alone, padded)).as(model.id()).isGreaterThan(0.99999);
        }
    }

    @Test
    void meanPoolingDiffersFromClsPooling() {
        BertEncoder miniLm = TestModels.miniLm();
        BertSpec cls =
                new BertSpec(
                        "all-MiniLM-L6-v2-cls",
                        BertSpec.ALL_MINILM_L6_V2.onnxResource(),
                        BertSpec.ALL_MINILM_L6_V2.tokenizerResource(),
                        12,
                        Pooling.CLS,
                        "",
                        512,
                        BertSpec.BERT_LAYER_NORM_EPSILON);
        try (BertEncoder clsModel = BertEncoder.load(cls, TestModels.withoutInt8OrBf16())) {
            float[] mean = miniLm.embedDocuments(List.of(PASSAGE)).getFirst();
            float[] first = clsModel.embedDocuments(List.of(PASSAGE)).getFirst();
            assertThat(TestModels.cosine(mean, first)).isLessThan(0.99);
        }
    }

    @Test
    void withoutBfloat16ABatchOfConcurrentQueriesStaysOnTheHalfPrecisionWeights() {
        // bge() has no bfloat16 kernel
        assertTenConcurrentQueriesRunAsTheyDoAlone(TestModels.bge(), true);
    }

    @Test
    void withBfloat16OffTheAmxTilesABatchOfConcurrentQueriesStaysOnTheHalfPrecisionWeights() {
        assumeTrue(
                BFloat16Linear.supported().filter(bf16 -> !bf16.onMatrixTiles()).isPresent(),
                "skipped: needs AVX-512 BF16 without AMX; on this CPU bfloat16 is on AMX tiles"
                        + " (the next test) or absent (withoutBfloat16..., fp16 weights)");
        assertTenConcurrentQueriesRunAsTheyDoAlone(TestModels.bgeBf16(), true);
    }

    @Test
    void withBfloat16OnTheAmxTilesABatchOfConcurrentQueriesRunsInBfloat16() {
        assumeTrue(
                BFloat16Linear.supported().filter(BFloat16Linear::onMatrixTiles).isPresent(),
                "skipped: needs AMX (amx_bf16), which this CPU lacks; query batches stay on"
                        + " fp16 weights (withoutBfloat16... and withBfloat16OffTheAmxTiles...)");
        assertTenConcurrentQueriesRunAsTheyDoAlone(TestModels.bgeBf16(), false);
    }

    @Test
    void withInt8ABatchOfConcurrentQueriesRunsOnTheInt8ColumnSlices() {
        assumeTrue(
                Int8Linear.supported().isPresent(),
                "int8 query batches skipped: this CPU has no VNNI (avx512_vnni or avx_vnni);"
                        + " query batches run on fp16 weights (withoutBfloat16...)");
        BertEncoder int8 = TestModels.bgeInt8();
        List<String> queries = tenQueriesOfOneLength(int8);

        List<float[]> batch = int8.embedQueries(queries);

        for (int i = 0; i < queries.size(); i++) {
            // activations are quantised per row and the integer product is exact
            float[] alone = int8.embedQuery(queries.get(i));
            assertThat(batch.get(i)).as("query %d", i).containsExactly(alone, within(1e-6f));
            float[] fp16 = TestModels.bge().embedQuery(queries.get(i));
            assertThat(TestModels.cosine(batch.get(i), fp16))
                    .as("query %d", i)
                    .isGreaterThan(0.999);
            assertThat(TestModels.maxDifference(batch.get(i), fp16))
                    .as("query %d", i)
                    .isGreaterThan(1e-4f);
        }
    }

    /**
     * Ten queries of one length are one pass without padding, above {@link
     * BertEncoder#HALF_WEIGHT_MAX_ROWS} and within {@link
     * BertEncoder#HALF_WEIGHT_MAX_ROWS_WITHOUT_AMX}. On the fp16 weights each vector must be the
     * one its query gets alone up to float32 rounding (~1e-8 here); float32 or bfloat16 weights put
     * components ~1e-4 or more apart.
     */
    private static void assertTenConcurrentQueriesRunAsTheyDoAlone(
            BertEncoder encoder, boolean halfPrecision) {
        assumeTrue(
                HalfPrecisionLinear.supported().isPresent(),
                "fp16 query batches skipped: fp16 weights need x86-64 AVX2, FMA and F16C,"
                        + " which this CPU lacks; short passes run float32 (OnnxRuntimeParityTest)");
        List<String> queries = tenQueriesOfOneLength(encoder);
        assertThat(encoder.shortPassMaxRows() >= TestModels.bgeQueryPassRows(encoder, queries))
                .as("the pass's rows are within the encoder's fp16 bound")
                .isEqualTo(halfPrecision);

        List<float[]> batch = encoder.embedQueries(queries);

        for (int i = 0; i < queries.size(); i++) {
            float[] alone = encoder.embedQuery(queries.get(i));
            if (halfPrecision) {
                assertThat(batch.get(i)).as("query %d", i).containsExactly(alone, within(1e-6f));
            } else {
                assertThat(TestModels.cosine(batch.get(i), alone))
                        .as("query %d", i)
                        .isGreaterThan(0.9995);
                assertThat(TestModels.maxDifference(batch.get(i), alone))
                        .as("query %d", i)
                        .isGreaterThan(1e-6f);
            }
        }
    }

    /**
     * Ten queries whose tokens make one pass without padding, above {@link
     * BertEncoder#HALF_WEIGHT_MAX_ROWS} rows and within {@link
     * BertEncoder#HALF_WEIGHT_MAX_ROWS_WITHOUT_AMX}.
     */
    private static List<String> tenQueriesOfOneLength(BertEncoder encoder) {
        List<String> queries = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            queries.add("which drug lowers the risk of heart attack number " + i + " in adults?");
        }
        assertThat(TestModels.bgeQueryPassRows(encoder, queries))
                .isGreaterThan(BertEncoder.HALF_WEIGHT_MAX_ROWS)
                .isLessThanOrEqualTo(BertEncoder.HALF_WEIGHT_MAX_ROWS_WITHOUT_AMX);
        return queries;
    }

    @Test
    void truncatesInputsBeyondTheTokenLimit() {
        BertEncoder bge = TestModels.bge();
        String longText = "the quick brown fox jumps over the lazy dog ".repeat(120);
        String firstTokens = bge.tokenCounter().truncate(longText, bge.maxTokens() - 2);
        List<float[]> v = bge.embedDocuments(List.of(longText, firstTokens, longText + " tail"));
        assertThat(TestModels.cosine(v.get(0), v.get(1))).isGreaterThan(0.99999);
        assertThat(TestModels.cosine(v.get(0), v.get(2))).isGreaterThan(0.99999);
    }

    @Test
    void keepsInputOrderAcrossLengthBuckets() {
        BertEncoder bge = TestModels.bge();
        List<String> texts = VariedTexts.generate(40, 11L);
        List<float[]> together = bge.embedDocuments(texts);
        for (int i = 0; i < texts.size(); i += 7) {
            float[] alone = bge.embedDocuments(List.of(texts.get(i))).getFirst();
            assertThat(TestModels.cosine(together.get(i), alone))
                    .as("text %d", i)
                    .isGreaterThan(0.9999);
        }
    }

    @Test
    void servesConcurrentCallersFromOneInstance() throws Exception {
        BertEncoder bge = TestModels.bge();
        List<String> texts = VariedTexts.generate(8, 3L);
        List<float[]> expected = bge.embedDocuments(texts);
        ExecutorService pool =
                Executors.newFixedThreadPool(3, Thread.ofPlatform().name("embed-", 0).factory());
        try {
            List<Future<List<float[]>>> futures = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                futures.add(pool.submit(() -> bge.embedDocuments(texts)));
            }
            for (Future<List<float[]>> f : futures) {
                List<float[]> actual = f.get();
                for (int i = 0; i < texts.size(); i++) {
                    assertThat(TestModels.cosine(actual.get(i), expected.get(i)))
                            .isGreaterThan(0.99999);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void separateAttentionOpsGiveTheFusedKernelsVectors() {
        // the fallback when libtorch lacks the fused op: same vectors, padded batches, long inputs
        // (sliced attention) and the CLS-only last layer included
        List<String> texts = VariedTexts.generate(40, 20261122L);
        try (BertEncoder fused =
                        BertEncoder.load(
                                BertSpec.BGE_SMALL_EN_V15, TestModels.withoutInt8OrBf16());
                BertEncoder separate =
                        BertEncoder.load(
                                BertSpec.BGE_SMALL_EN_V15,
                                TestModels.withoutInt8OrBf16().withFusedAttention(false))) {
            List<float[]> a = fused.embedDocuments(texts);
            List<float[]> b = separate.embedDocuments(texts);
            for (int i = 0; i < texts.size(); i++) {
                assertThat(OnnxRuntimeParityTest.cosine(a.get(i), b.get(i)))
                        .as("text %d", i)
                        .isGreaterThan(0.99999);
            }
        }
    }

    @Test
    void returnsNothingForNoTexts() {
        assertThat(TestModels.bge().embedDocuments(List.of())).isEmpty();
    }

    @Test
    void failsFastNamingAMissingWeightFile() {
        BertSpec missing =
                new BertSpec(
                        "missing",
                        "no-such-model.onnx",
                        BertSpec.BGE_SMALL_EN_V15.tokenizerResource(),
                        12,
                        Pooling.CLS,
                        "",
                        512,
                        BertSpec.BERT_LAYER_NORM_EPSILON);
        assertThatThrownBy(() -> BertEncoder.load(missing, EncoderOptions.defaults()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("weight file missing")
                .hasMessageContaining("no-such-model.onnx");
    }

    @Test
    void rejectsASpecWithoutHeads() {
        assertThatThrownBy(
                        () ->
                                new BertSpec(
                                        "x", "a.onnx", "t.json", 0, Pooling.CLS, "", 512, 1e-12f))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("illegal heads: 0, must be >= 1");
    }

    @Test
    void queriesQueuedBehindAPassShareTheNextOneAndEachGetsItsOwnVector() throws Exception {
        BertEncoder bge = TestModels.bge();
        List<String> queries = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            queries.add("which runbook restarts service number " + i + " after a failed deploy?");
        }
        List<float[]> alone = queries.stream().map(bge::embedQuery).toList();
        ForwardPassScheduler passes = bge.passes();
        long passesBefore = passes.passes();

        CountDownLatch release = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(17)) {
            // Hold the inference thread, as a running pass would, while the queries queue up.
            Future<?> blocker = TestModels.holdInferenceThread(pool, release);
            List<Future<float[]>> together = new ArrayList<>();
            for (String q : queries) {
                together.add(pool.submit(() -> bge.embedQuery(q)));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (passes.queued() < queries.size() && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertThat(passes.queued()).isEqualTo(queries.size());
            release.countDown();
            blocker.get();
            for (int i = 0; i < queries.size(); i++) {
                // one batched float32 pass against sixteen fp16 passes of one: equal in direction
                assertThat(TestModels.cosine(together.get(i).get(), alone.get(i)))
                        .as(queries.get(i))
                        .isGreaterThan(0.999);
            }
        }
        assertThat(passes.passes() - passesBefore).isEqualTo(1);
    }
}
