package dev.cairn.embeddings.bert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.embeddings.kernels.FusedAttention;
import dev.cairn.embeddings.kernels.HalfPrecisionLinear;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Our DJL forward pass against ONNX Runtime running the very ONNX file our weights come from. Both
 * see the same token ids; ONNX Runtime gets one unpadded text per run, ours batches with padding,
 * so padding and masking are checked too.
 */
class OnnxRuntimeParityTest {

    private static final long SEED = 20261122L;
    private static final int TEXTS = 200;
    private static final double MIN_COSINE = 0.9999;

    enum Model {
        BGE(BertSpec.BGE_SMALL_EN_V15),
        MINILM(BertSpec.ALL_MINILM_L6_V2);

        final BertSpec spec;

        Model(BertSpec spec) {
            this.spec = spec;
        }
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    void matchesOnnxRuntimeOnVariedTexts(Model model) throws Exception {
        // the fused attention is what production runs, padded batches and all
        assertThat(FusedAttention.supported()).as("fused attention in this libtorch").isPresent();
        List<String> texts = VariedTexts.generate(TEXTS, SEED);
        BertSpec spec = model.spec;
        try (BertEncoder ours = BertEncoder.load(spec, TestModels.withoutInt8OrBf16())) {
            List<float[]> actual = ours.embedDocuments(texts);
            long[][] ids = ((HfTokenizer) ours.tokenCounter()).encodeForModel(texts);
            assertThat(java.util.Arrays.stream(ids).mapToInt(r -> r.length).max().orElseThrow())
                    .as("longest input must hit the token limit")
                    .isEqualTo(512);
            for (int i = 0; i < texts.size(); i++) {
                float[] expected = OrtReferences.of(spec, ids[i]);
                assertThat(cosine(actual.get(i), expected))
                        .as(
                                "text %d (seed %d, %d tokens): %.60s",
                                i, SEED, ids[i].length, texts.get(i))
                        .isGreaterThanOrEqualTo(MIN_COSINE);
            }
        }
    }

    /**
     * Inputs of at most {@link BertEncoder#shortPassMaxRows()} tokens, each embedded alone as a
     * query is, run their linear layers on the half-precision weights; they must stay at parity
     * with ONNX Runtime's float32 too. On x86-64 with AVX2 the fp16 path must be there.
     */
    @ParameterizedTest
    @EnumSource(Model.class)
    void shortInputsOnHalfPrecisionWeightsMatchOnnxRuntime(Model model) throws Exception {
        if (System.getProperty("os.arch").equals("amd64")) {
            assertThat(HalfPrecisionLinear.supported()).as("fp16 linear on this CPU").isPresent();
        }
        BertSpec spec = model.spec;
        try (BertEncoder ours = BertEncoder.load(spec, TestModels.withoutInt8OrBf16())) {
            List<String> texts = VariedTexts.generate(TEXTS, SEED);
            long[][] ids = ((HfTokenizer) ours.tokenCounter()).encodeForModel(texts);
            int checked = 0;
            for (int i = 0; i < texts.size(); i++) {
                if (ids[i].length > ours.shortPassMaxRows()) {
                    continue;
                }
                float[] actual = ours.embedTokenIds(new long[][] {ids[i]}).getFirst();
                assertThat(cosine(actual, OrtReferences.of(spec, ids[i])))
                        .as("short text %d (%d tokens): %.60s", i, ids[i].length, texts.get(i))
                        .isGreaterThanOrEqualTo(MIN_COSINE);
                checked++;
            }
            assertThat(checked).as("short texts among the varied ones").isGreaterThanOrEqualTo(40);
        }
    }

    static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}
