package dev.cairn.embeddings.bert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.embeddings.CountingEmbeddingModel;
import dev.cairn.embeddings.EmbeddingCache;
import dev.cairn.embeddings.EmbeddingModels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the reduced-precision document passes (int8, bfloat16) must keep of the float32 ones: every
 * text's vector close to its float32 vector, and the nearest passage to a query unchanged.
 */
final class ReducedPrecision {

    private ReducedPrecision() {}

    /**
     * The float32 reference vectors of texts already asked for in this JVM (the int8 and bfloat16
     * classes compare with the same 300 varied texts), per model.
     */
    private static final Map<List<Object>, List<float[]>> FLOAT32 = new ConcurrentHashMap<>();

    /**
     * The float32 document vectors the reduced passes are bounded by: ONNX Runtime's, on the ONNX
     * file the weights come from ({@link OrtReferences}, kept on disk between runs), not {@code
     * float32}'s own pass, which {@link OnnxRuntimeParityTest} holds within cosine 0.9999 of them.
     * The reference then owes nothing to the code under test, and a run with the cache spends
     * nothing on it (the encoder's float32 pass of the 300 texts took 20-30 s of each run).
     */
    static List<float[]> float32Vectors(BertEncoder float32, List<String> texts) {
        return FLOAT32.computeIfAbsent(
                List.of(float32.exactId(), List.copyOf(texts)),
                k -> {
                    try {
                        return OrtReferences.ofDocuments(float32, texts);
                    } catch (Exception e) {
                        throw new IllegalStateException("ONNX Runtime's reference vectors", e);
                    }
                });
    }

    /**
     * Asserts cosine(reduced, float32) of each text's document vector is at least {@code minCosine}
     * and their mean at least {@code minMean}; prints both, as the bounds' comments quote them.
     */
    static void assertCloseToFloat32(
            BertEncoder reduced,
            BertEncoder float32,
            List<String> texts,
            long seed,
            double minCosine,
            double minMean) {
        List<float[]> moved = reduced.embedDocuments(texts);
        List<float[]> reference = float32Vectors(float32, texts);
        double[] cosines = new double[texts.size()];
        for (int i = 0; i < texts.size(); i++) {
            cosines[i] = TestModels.cosine(moved.get(i), reference.get(i));
        }
        double mean = Arrays.stream(cosines).average().orElseThrow();
        System.out.printf(
                "%s vs float32 over %d texts: mean cosine %.6f, lowest %.6f%n",
                reduced.exactId(), texts.size(), mean, Arrays.stream(cosines).min().orElseThrow());
        for (int i = 0; i < texts.size(); i++) {
            assertThat(cosines[i])
                    .as("%s text %d (seed %d): %.60s", reduced.exactId(), i, seed, texts.get(i))
                    .isGreaterThanOrEqualTo(minCosine);
        }
        assertThat(mean).as("%s mean cosine", reduced.exactId()).isGreaterThanOrEqualTo(minMean);
    }

    /**
     * Asserts that for all but at most one of the queries made from every third passage, the
     * nearest passage under {@code reduced} document vectors is the nearest under float32 ones:
     * what retrieval needs of the vectors.
     */
    static void assertSameNearestPassage(
            BertEncoder reduced, BertEncoder float32, List<String> passages) {
        List<float[]> moved = reduced.embedDocuments(passages);
        List<float[]> reference = float32Vectors(float32, passages);
        int agree = 0;
        int asked = 0;
        for (int q = 0; q < passages.size(); q += 3) {
            String text = passages.get(q);
            if (text.isBlank()) {
                continue;
            }
            float[] query = float32.embedQuery(text);
            asked++;
            if (nearest(query, moved) == nearest(query, reference)) {
                agree++;
            }
        }
        assertThat(agree)
                .as("queries whose top passage is the same")
                .isGreaterThanOrEqualTo(asked - 1);
    }

    /**
     * Cosine between {@code reduced}'s vector of a short passage embedded alone and in a padded
     * batch of much longer neighbours.
     */
    static double aloneVersusPaddedCosine(BertEncoder reduced) {
        String passage = "Aspirin irreversibly inhibits cyclooxygenase, reducing thromboxane.";
        float[] alone = reduced.embedDocuments(List.of(passage)).getFirst();
        List<String> batch = new ArrayList<>(List.of(passage));
        for (int i = 0; i < 3; i++) {
            batch.add("a much longer neighbour with large activations ".repeat(20) + i);
        }
        long[][] ids = ((HfTokenizer) reduced.tokenCounter()).encodeForModel(batch);
        return TestModels.cosine(alone, reduced.embedTokenIds(ids).getFirst());
    }

    /**
     * Asserts {@code reduced} has the exact id {@code id} and the float32 encoder's model id (the
     * one stored vectors record), and that a cache holding a text's float32 vector does not answer
     * {@code reduced}'s request for it: the vector is embedded again and kept under {@code id}.
     */
    static void assertCachedUnderOwnId(BertEncoder reduced, String id) {
        BertEncoder float32 = TestModels.bge();
        assertThat(reduced.exactId()).isEqualTo(id);
        assertThat(reduced.id()).isEqualTo(float32.id()).isEqualTo("bge-small-en-v1.5");
        assertThat(float32.exactId()).isEqualTo("bge-small-en-v1.5");
        String text = "one passage embedded both ways";
        try (EmbeddingCache cache = EmbeddingCache.inMemory()) {
            float[] fromFloat32 =
                    EmbeddingModels.cached(float32, cache).embedDocuments(List.of(text)).getFirst();
            CountingEmbeddingModel counting = new CountingEmbeddingModel(reduced);
            float[] fromReduced =
                    EmbeddingModels.cached(counting, cache)
                            .embedDocuments(List.of(text))
                            .getFirst();
            assertThat(counting.embedded()).as("the float32 vector is not a hit").isEqualTo(1);
            assertThat(cache.size()).isEqualTo(2);
            assertThat(fromReduced).isNotEqualTo(fromFloat32);
            assertThat(fromReduced)
                    .containsExactly(reduced.embedDocuments(List.of(text)).getFirst());
            assertThat(cache.getAll(List.of(EmbeddingCache.Key.of(id + "/document", text))))
                    .hasSize(1);
        }
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
}
