package dev.cairn.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.norm.LayerNorm;
import java.util.List;
import java.util.Optional;
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
     * Bounds on cosine(int8, float32) over the varied texts, for every text and for the mean.
     * Measured: bge-small mean 0.9988, lowest 0.9963; all-MiniLM-L6-v2 (mean pooling, whose
     * one-token inputs such as "?" move most) mean 0.9964, lowest 0.9825.
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
        assumeTrue(Int8Linear.supported().isPresent(), "no int8 path on this machine");
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
                BertEncoder.load(BertSpec.ALL_MINILM_L6_V2, Int8Linear.supported())) {
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
        assumeTrue(FusedAttention.load().isPresent(), "int8 short passes need fused attention");
        try (BertEncoder queriesOnly =
                BertEncoder.load(
                        BertSpec.BGE_SMALL_EN_V15,
                        BFloat16Linear.supported(),
                        Int8Linear.supported(),
                        Int8Linear.Use.QUERIES)) {
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
        assumeTrue(FusedAttention.load().isPresent(), "int8 query passes need fused attention");
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
        String previous = System.getProperty(Int8Linear.ENABLED_PROPERTY);
        String bf16 = System.getProperty(BFloat16Linear.ENABLED_PROPERTY);
        System.setProperty(Int8Linear.ENABLED_PROPERTY, "false");
        System.setProperty(BFloat16Linear.ENABLED_PROPERTY, "false");
        try {
            assertThat(Int8Linear.load()).isEmpty();
            List<String> texts = VariedTexts.generate(24, SEED + 2);
            try (BertEncoder off = BertEncoder.load(BertSpec.BGE_SMALL_EN_V15)) {
                assertThat(off.exactId()).isEqualTo(off.id()).isEqualTo("bge-small-en-v1.5");
                assertThat(off.precision()).doesNotContain("int8").doesNotContain("bfloat16");
                List<float[]> a = off.embedDocuments(texts);
                List<float[]> b = TestModels.bge().embedDocuments(texts);
                for (int i = 0; i < texts.size(); i++) {
                    assertThat(a.get(i)).as("text %d", i).containsExactly(b.get(i));
                }
            }
        } finally {
            restore(Int8Linear.ENABLED_PROPERTY, previous);
            restore(BFloat16Linear.ENABLED_PROPERTY, bf16);
        }
        if (previous == null) {
            java.util.Set<String> flags = NativeAten.cpuFlags();
            boolean vnni = flags.contains("avx512_vnni") || flags.contains("avx_vnni");
            boolean amx = flags.contains("amx_bf16");
            Int8Linear.Use expected =
                    !vnni ? Int8Linear.Use.OFF : amx ? Int8Linear.Use.QUERIES : Int8Linear.Use.ALL;
            assertThat(Int8Linear.defaultUse())
                    .as("every pass with VNNI and without AMX, query passes with AMX")
                    .isEqualTo(expected);
            assertThat(Int8Linear.use()).isEqualTo(expected);
            assertThat(Int8Linear.load())
                    .isEqualTo(vnni ? Int8Linear.supported() : Optional.empty());
            try {
                System.setProperty(Int8Linear.ENABLED_PROPERTY, "true");
                assertThat(Int8Linear.use()).isEqualTo(Int8Linear.Use.ALL);
                assertThat(Int8Linear.load()).as("on when asked").isEqualTo(Int8Linear.supported());
                System.setProperty(Int8Linear.ENABLED_PROPERTY, " Queries ");
                assertThat(Int8Linear.use()).isEqualTo(Int8Linear.Use.QUERIES);
                assertThat(Int8Linear.load()).isEqualTo(Int8Linear.supported());
                System.setProperty(Int8Linear.ENABLED_PROPERTY, "yes");
                assertThatThrownBy(Int8Linear::use)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage(
                                "cairn.embeddings.int8 must be true, false or queries, not 'yes'");
            } finally {
                System.clearProperty(Int8Linear.ENABLED_PROPERTY);
            }
        }
    }

    @Test
    void int8ProductIsExact() {
        Int8Linear int8 = Int8Linear.supported().orElseThrow();
        try (var manager = TorchRuntime.engine().newBaseManager()) {
            java.util.Random random = new java.util.Random(SEED);
            int m = 37;
            int k = 384;
            int n = 96;
            byte[] a = new byte[m * k];
            byte[] b = new byte[k * n];
            for (int i = 0; i < a.length; i++) {
                a[i] = (byte) (random.nextInt(255) - 127);
            }
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) (random.nextInt(255) - 127);
            }
            int[] product =
                    int8.product(
                                    manager.create(a, new ai.djl.ndarray.types.Shape(m, k)),
                                    manager.create(b, new ai.djl.ndarray.types.Shape(k, n)))
                            .toIntArray();
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    int expected = 0;
                    for (int x = 0; x < k; x++) {
                        expected += a[i * k + x] * b[x * n + j];
                    }
                    assertThat(product[i * n + j]).as("[%d, %d]", i, j).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void aLinearLayerMatchesItsFormulaInTensorOpsWholeAndInColumnSlices() {
        // the formula as separate DJL ops (how the layer ran before its quantisation and rescaling
        // became Java loops): q = round_half_even(x / s_x), y = (q·W_q) · s_n · s_x + b
        Int8Linear int8 = Int8Linear.supported().orElseThrow();
        try (var manager = TorchRuntime.engine().newBaseManager()) {
            java.util.Random random = new java.util.Random(SEED);
            int rows = 37;
            int in = 384;
            int out = 300; // two column slices of at least MIN_COLUMNS_PER_PART where 2 cores are
            float[] x = new float[rows * in];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) random.nextGaussian() * (1 + i % 7);
            }
            // row 0: step 1, so 2.5 and -3.5 are ties (even: 2, -4); row 1: all zero
            x[0] = 127f;
            x[1] = 2.5f;
            x[2] = -3.5f;
            for (int k = 3; k < in; k++) {
                x[k] = 1.25f;
            }
            java.util.Arrays.fill(x, in, 2 * in, 0f);
            float[] weight = new float[in * out];
            for (int i = 0; i < weight.length; i++) {
                weight[i] = (float) random.nextGaussian() * 0.05f;
            }
            float[] bias = new float[out];
            for (int i = 0; i < out; i++) {
                bias[i] = (float) random.nextGaussian();
            }
            Int8Linear.Quantised q = Int8Linear.quantise(weight, in, out);
            var shape = new ai.djl.ndarray.types.Shape(in, out);
            Int8Linear.Packed packed =
                    int8.pack(manager.create(q.weight(), shape), q.scales(), bias);
            var input = manager.create(x, new ai.djl.ndarray.types.Shape(rows, in));

            float[] y = int8.apply(input, packed).toFloatArray();

            int[] columns = {1};
            var step =
                    input.max(columns, true)
                            .maximum(input.min(columns, true).neg())
                            .maximum(Float.MIN_NORMAL)
                            .divi(Int8Linear.LEVELS);
            var quantised =
                    input.div(step).round().toType(ai.djl.ndarray.types.DataType.INT8, false);
            byte[] firstRow = java.util.Arrays.copyOf(quantised.toByteArray(), 3);
            assertThat(firstRow).containsExactly(127, 2, -4);
            float[] expected =
                    int8.product(quantised, packed.weight())
                            .mul(manager.create(packed.scales()))
                            .muli(step)
                            .addi(manager.create(packed.bias()))
                            .toFloatArray();
            assertThat(y).containsExactly(expected);
            // the short-pass route: rows quantised one at a time, the product cut by columns
            // (one slice per core) into int32 tensors made once, rescaled row by row
            assertThat(packed.columnSlices())
                    .hasSize(Math.min(2, SpinningHelpers.shared().threads()));
            var quantisedRows = new Int8Linear.QuantisedRows(manager, rows, in);
            byte[] scratch = new byte[in];
            for (int r = 0; r < rows; r++) {
                quantisedRows.set(r, x, r * in, scratch);
            }
            assertThat(quantisedRows.tensor.toByteArray()).containsExactly(quantised.toByteArray());
            var products = int8.new SliceProducts(quantisedRows, packed);
            products.run(packed);
            float[] sliced = new float[rows * out];
            float[] row = new float[out];
            int[] acc = new int[out];
            for (int r = 0; r < rows; r++) {
                products.rescaleRow(r, packed, row, acc);
                System.arraycopy(row, 0, sliced, r * out, out);
            }
            assertThat(sliced).containsExactly(expected);
        }
    }

    @Test
    void aLayersRowLoopsMatchTheirFormulaInTensorOps() {
        // Int8Linear.addNormalised and geluQuantised against the same layer end as separate ops:
        // LayerNorm(x·Wᵀ + b + residual) with DJL's LayerNorm, GELU with RowKernels' on the
        // product, each quantised again by Int8Linear.quantised
        Int8Linear int8 = Int8Linear.supported().orElseThrow();
        try (var manager = TorchRuntime.engine().newBaseManager()) {
            java.util.Random random = new java.util.Random(SEED + 1);
            int rows = 37;
            int width = 384;
            float[] x = new float[rows * width];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) random.nextGaussian() * (1 + i % 5);
            }
            float[] weight = new float[width * width];
            for (int i = 0; i < weight.length; i++) {
                weight[i] = (float) random.nextGaussian() * 0.05f;
            }
            float[] bias = new float[width];
            float[] gamma = new float[width];
            float[] beta = new float[width];
            for (int i = 0; i < width; i++) {
                bias[i] = (float) random.nextGaussian();
                gamma[i] = 0.5f + random.nextFloat();
                beta[i] = (float) random.nextGaussian() * 0.1f;
            }
            float eps = 1e-12f;
            Int8Linear.Quantised q = Int8Linear.quantise(weight, width, width);
            var shape = new Shape(width, width);
            Int8Linear.Packed packed =
                    int8.pack(manager.create(q.weight(), shape), q.scales(), bias);
            var input = manager.create(x, new Shape(rows, width));
            var linear = int8.apply(input, packed);

            for (int stride : new int[] {1, 3}) {
                float[] r = new float[rows * stride * width];
                for (int i = 0; i < r.length; i++) {
                    r[i] = (float) random.nextGaussian();
                }
                var residual = manager.create(r, new Shape(rows * stride, width));
                var next = new Int8Linear.QuantisedRows(manager, rows, width);
                var normalised =
                        int8.addNormalised(
                                int8.quantised(input),
                                packed,
                                residual,
                                stride,
                                gamma,
                                beta,
                                eps,
                                next);

                var added = linear.add(residual.get(new NDIndex("0:{}:{}", rows * stride, stride)));
                float[] expected =
                        LayerNorm.layerNorm(
                                        added,
                                        new Shape(width),
                                        manager.create(gamma),
                                        manager.create(beta),
                                        eps)
                                .singletonOrThrow()
                                .toFloatArray();
                float[] actual = normalised.toFloatArray();
                assertThat(normalised.getShape()).isEqualTo(new Shape(rows, width));
                for (int i = 0; i < expected.length; i++) {
                    assertThat(actual[i]).isCloseTo(expected[i], within(2e-5f));
                }
                try (var again = int8.quantised(normalised)) {
                    assertThat(next.tensor.toByteArray())
                            .containsExactly(again.tensor.toByteArray());
                    assertThat(next.steps).containsExactly(again.steps);
                }
            }

            float[] gelu = linear.toFloatArray();
            for (int i = 0; i < gelu.length; i++) {
                gelu[i] = RowKernels.gelu(gelu[i]);
            }
            try (var inner = int8.geluQuantised(int8.quantised(input), packed);
                    var expected = int8.quantised(manager.create(gelu, new Shape(rows, width)))) {
                assertThat(inner.tensor.toByteArray())
                        .containsExactly(expected.tensor.toByteArray());
                assertThat(inner.steps).containsExactly(expected.steps);
            }
            var wrongResidual = manager.create(new float[width], new Shape(1, width));
            assertThatThrownBy(
                            () ->
                                    int8.addNormalised(
                                            int8.quantised(input),
                                            packed,
                                            wrongResidual,
                                            1,
                                            gamma,
                                            beta,
                                            eps,
                                            null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("illegal residual [1, 384] for 37 rows of 384 every 1");
        }
    }

    @Test
    void bindsOnlyWhereVnniIs() {
        Optional<Int8Linear> int8 = Int8Linear.supported();
        assertThat(int8.isPresent())
                .isEqualTo(
                        NativeAten.cpuFlags().contains("avx512_vnni")
                                || NativeAten.cpuFlags().contains("avx_vnni"));
    }

    /** Sets {@code key} back to {@code value}, clearing it when that is null. */
    static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
