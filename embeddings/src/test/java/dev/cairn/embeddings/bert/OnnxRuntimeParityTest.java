package dev.cairn.embeddings.bert;

import static org.assertj.core.api.Assertions.assertThat;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import dev.cairn.embeddings.Pooling;
import dev.cairn.embeddings.kernels.FusedAttention;
import dev.cairn.embeddings.kernels.HalfPrecisionLinear;
import java.io.IOException;
import java.io.InputStream;
import java.nio.LongBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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

    /**
     * ONNX Runtime's vector of each input, per model: both tests compare with the same varied
     * texts, and the vectors are kept on disk between runs ({@link OrtReferenceCache}).
     */
    private static final Map<Model, OrtReferenceCache> REFERENCES = new ConcurrentHashMap<>();

    private static float[] referenceOnce(
            Model model, OrtEnvironment env, OrtSession session, long[] ids) throws Exception {
        return REFERENCES
                .computeIfAbsent(model, m -> OrtReferenceCache.of(m.spec.onnxResource()))
                .get(ids, () -> reference(env, session, ids, model.spec.pooling()));
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    void matchesOnnxRuntimeOnVariedTexts(Model model) throws Exception {
        // the fused attention is what production runs, padded batches and all
        assertThat(FusedAttention.supported()).as("fused attention in this libtorch").isPresent();
        List<String> texts = VariedTexts.generate(TEXTS, SEED);
        BertSpec spec = model.spec;
        try (BertEncoder ours = BertEncoder.load(spec, TestModels.withoutInt8OrBf16());
                OrtEnvironment env = OrtEnvironment.getEnvironment();
                OrtSession session = env.createSession(readResource(spec.onnxResource()))) {
            List<float[]> actual = ours.embedDocuments(texts);
            long[][] ids = ((HfTokenizer) ours.tokenCounter()).encodeForModel(texts);
            assertThat(java.util.Arrays.stream(ids).mapToInt(r -> r.length).max().orElseThrow())
                    .as("longest input must hit the token limit")
                    .isEqualTo(512);
            for (int i = 0; i < texts.size(); i++) {
                float[] expected = referenceOnce(model, env, session, ids[i]);
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
        try (BertEncoder ours = BertEncoder.load(spec, TestModels.withoutInt8OrBf16());
                OrtEnvironment env = OrtEnvironment.getEnvironment();
                OrtSession session = env.createSession(readResource(spec.onnxResource()))) {
            List<String> texts = VariedTexts.generate(TEXTS, SEED);
            long[][] ids = ((HfTokenizer) ours.tokenCounter()).encodeForModel(texts);
            int checked = 0;
            for (int i = 0; i < texts.size(); i++) {
                if (ids[i].length > ours.shortPassMaxRows()) {
                    continue;
                }
                float[] actual = ours.embedTokenIds(new long[][] {ids[i]}).getFirst();
                assertThat(cosine(actual, referenceOnce(model, env, session, ids[i])))
                        .as("short text %d (%d tokens): %.60s", i, ids[i].length, texts.get(i))
                        .isGreaterThanOrEqualTo(MIN_COSINE);
                checked++;
            }
            assertThat(checked).as("short texts among the varied ones").isGreaterThanOrEqualTo(40);
        }
    }

    static byte[] readResource(String name) throws IOException {
        try (InputStream in =
                OnnxRuntimeParityTest.class.getClassLoader().getResourceAsStream(name)) {
            return in.readAllBytes();
        }
    }

    /** Runs ONNX Runtime on one unpadded input and pools + normalises in plain Java. */
    static float[] reference(OrtEnvironment env, OrtSession session, long[] ids, Pooling pooling)
            throws Exception {
        int t = ids.length;
        long[] shape = {1, t};
        long[] ones = new long[t];
        java.util.Arrays.fill(ones, 1);
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            for (String name : session.getInputNames()) {
                long[] data =
                        switch (name) {
                            case "input_ids" -> ids;
                            case "attention_mask" -> ones;
                            case "token_type_ids" -> new long[t];
                            default -> throw new IllegalStateException("unknown input " + name);
                        };
                inputs.put(name, OnnxTensor.createTensor(env, LongBuffer.wrap(data), shape));
            }
            try (OrtSession.Result result = session.run(inputs)) {
                float[][][] hidden = (float[][][]) result.get(0).getValue();
                float[][] tokens = hidden[0];
                int d = tokens[0].length;
                float[] v = new float[d];
                if (pooling == Pooling.CLS) {
                    System.arraycopy(tokens[0], 0, v, 0, d);
                } else {
                    for (float[] token : tokens) {
                        for (int j = 0; j < d; j++) {
                            v[j] += token[j] / t;
                        }
                    }
                }
                return normalise(v);
            }
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
    }

    static float[] normalise(float[] v) {
        double n = 0;
        for (float x : v) {
            n += x * x;
        }
        float inv = (float) (1 / Math.max(Math.sqrt(n), 1e-12));
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] * inv;
        }
        return out;
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
