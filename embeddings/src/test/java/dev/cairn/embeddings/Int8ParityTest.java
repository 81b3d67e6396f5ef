package dev.cairn.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
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
        assertCloseToFloat32(
                TestModels.bgeInt8(), TestModels.bge(), BGE_MIN_COSINE, BGE_MIN_MEAN_COSINE);
    }

    @Test
    void int8MiniLmVectorsStayCloseToFloat32OnVariedTexts() {
        try (BertEncoder int8 =
                BertEncoder.load(BertSpec.ALL_MINILM_L6_V2, Int8Linear.supported())) {
            assertCloseToFloat32(
                    int8, TestModels.miniLm(), MINILM_MIN_COSINE, MINILM_MIN_MEAN_COSINE);
        }
    }

    private static void assertCloseToFloat32(
            BertEncoder int8, BertEncoder float32, double minCosine, double minMean) {
        List<String> texts = VariedTexts.generate(TEXTS, SEED);
        List<float[]> quantised = int8.embedDocuments(texts);
        List<float[]> reference = float32.embedDocuments(texts);
        double[] cosines = new double[texts.size()];
        for (int i = 0; i < texts.size(); i++) {
            cosines[i] = TestModels.cosine(quantised.get(i), reference.get(i));
        }
        double mean = java.util.Arrays.stream(cosines).average().orElseThrow();
        System.out.printf(
                "%s vs float32 over %d texts: mean cosine %.5f, lowest %.5f%n",
                int8.id(),
                texts.size(),
                mean,
                java.util.Arrays.stream(cosines).min().orElseThrow());
        for (int i = 0; i < texts.size(); i++) {
            assertThat(cosines[i])
                    .as("%s text %d (seed %d): %.60s", int8.id(), i, SEED, texts.get(i))
                    .isGreaterThanOrEqualTo(minCosine);
        }
        assertThat(mean).as("%s mean cosine", int8.id()).isGreaterThanOrEqualTo(minMean);
    }

    @Test
    void int8RanksPassagesForAQueryAsFloat32Does() {
        // the nearest passage to each query stays the nearest: what retrieval needs of the vectors
        List<String> passages = VariedTexts.generate(120, SEED + 1);
        List<float[]> int8 = TestModels.bgeInt8().embedDocuments(passages);
        List<float[]> float32 = TestModels.bge().embedDocuments(passages);
        int agree = 0;
        int asked = 0;
        for (int q = 0; q < passages.size(); q += 3) {
            String text = passages.get(q);
            if (text.isBlank()) {
                continue;
            }
            float[] query = TestModels.bge().embedQuery(text);
            asked++;
            if (nearest(query, int8) == nearest(query, float32)) {
                agree++;
            }
        }
        assertThat(agree)
                .as("queries whose top passage is the same")
                .isGreaterThanOrEqualTo(asked - 1);
    }

    private static int nearest(float[] query, List<float[]> vectors) {
        int best = -1;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < vectors.size(); i++) {
            double s = TestModels.cosine(query, vectors.get(i));
            if (s > bestScore) {
                bestScore = s;
                best = i;
            }
        }
        return best;
    }

    @Test
    void aTextsInt8VectorDoesNotDependOnItsBatch() {
        // activations are scaled per token, so padding and neighbours leave a row's product as is
        BertEncoder int8 = TestModels.bgeInt8();
        String passage = "Aspirin irreversibly inhibits cyclooxygenase, reducing thromboxane.";
        float[] alone = int8.embedDocuments(List.of(passage)).getFirst();
        List<String> batch = new ArrayList<>(List.of(passage));
        for (int i = 0; i < 3; i++) {
            batch.add("a much longer neighbour with large activations ".repeat(20) + i);
        }
        long[][] ids = ((HfTokenizer) int8.tokenCounter()).encodeForModel(batch);
        float[] padded = int8.embedTokenIds(ids).getFirst();
        assertThat(TestModels.cosine(alone, padded)).isGreaterThan(0.99999);
    }

    @Test
    void queriesKeepTheirFloatPathUnderTheInt8Model() {
        String query = "does aspirin lower the risk of a heart attack?";
        assertThat(TestModels.bgeInt8().embedQuery(query))
                .containsExactly(TestModels.bge().embedQuery(query));
    }

    @Test
    void int8VectorsAreCachedUnderTheirOwnModelId() {
        BertEncoder int8 = TestModels.bgeInt8();
        BertEncoder float32 = TestModels.bge();
        assertThat(int8.id()).isEqualTo("bge-small-en-v1.5-int8");
        assertThat(float32.id()).isEqualTo("bge-small-en-v1.5");
        String text = "one passage embedded both ways";
        try (EmbeddingCache cache = EmbeddingCache.inMemory()) {
            float[] fromFloat32 =
                    EmbeddingModels.cached(new CountingEmbeddingModel(float32), cache)
                            .embedDocuments(List.of(text))
                            .getFirst();
            CountingEmbeddingModel counting = new CountingEmbeddingModel(int8);
            float[] fromInt8 =
                    EmbeddingModels.cached(counting, cache)
                            .embedDocuments(List.of(text))
                            .getFirst();
            assertThat(counting.embedded())
                    .as("the float32 vector is not an int8 hit")
                    .isEqualTo(1);
            assertThat(cache.size()).isEqualTo(2);
            assertThat(fromInt8).isNotEqualTo(fromFloat32);
            assertThat(fromInt8).containsExactly(int8.embedDocuments(List.of(text)).getFirst());
            assertThat(
                            cache.getAll(
                                    List.of(
                                            EmbeddingCache.Key.of(
                                                    "bge-small-en-v1.5-int8/document", text))))
                    .hasSize(1);
        }
    }

    @Test
    void offByDefaultAndOffGivesTheFloat32EncoderUnchanged() {
        String previous = System.getProperty(Int8Linear.ENABLED_PROPERTY);
        System.setProperty(Int8Linear.ENABLED_PROPERTY, "false");
        try {
            assertThat(Int8Linear.load()).isEmpty();
            List<String> texts = VariedTexts.generate(24, SEED + 2);
            try (BertEncoder off = BertEncoder.load(BertSpec.BGE_SMALL_EN_V15)) {
                assertThat(off.id()).isEqualTo("bge-small-en-v1.5");
                List<float[]> a = off.embedDocuments(texts);
                List<float[]> b = TestModels.bge().embedDocuments(texts);
                for (int i = 0; i < texts.size(); i++) {
                    assertThat(a.get(i)).as("text %d", i).containsExactly(b.get(i));
                }
            }
        } finally {
            if (previous == null) {
                System.clearProperty(Int8Linear.ENABLED_PROPERTY);
            } else {
                System.setProperty(Int8Linear.ENABLED_PROPERTY, previous);
            }
        }
        if (previous == null) {
            assertThat(Int8Linear.load()).as("off by default").isEmpty();
            System.setProperty(Int8Linear.ENABLED_PROPERTY, "true");
            try {
                assertThat(Int8Linear.load()).as("on when asked").isEqualTo(Int8Linear.supported());
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
    void bindsOnlyWhereVnniIs() {
        Optional<Int8Linear> int8 = Int8Linear.supported();
        assertThat(int8.isPresent())
                .isEqualTo(
                        NativeAten.cpuFlags().contains("avx512_vnni")
                                || NativeAten.cpuFlags().contains("avx_vnni"));
    }
}
