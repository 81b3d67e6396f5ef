package dev.cairn.embeddings.bert;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.cairn.embeddings.Pooling;
import java.nio.LongBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ONNX Runtime's float32 document vectors, run on the ONNX file a model's weights come from: the
 * reference the encoder's passes are checked against ({@link OnnxRuntimeParityTest} holds the
 * float32 pass to it, the reduced-precision classes bound int8 and bfloat16 by it). Vectors come
 * from {@link OrtReferenceCache}, kept on disk between runs; a model's session is opened only when
 * one is missing, once per JVM, and stays open until the JVM ends. Thread-safe.
 */
final class OrtReferences {

    private static final Map<BertSpec, OrtReferenceCache> CACHES = new ConcurrentHashMap<>();
    private static final Map<BertSpec, OrtSession> SESSIONS = new ConcurrentHashMap<>();

    private OrtReferences() {}

    /** The reference vector of one input's token ids (unpadded, as the model's tokenizer gives). */
    static float[] of(BertSpec spec, long[] ids) throws Exception {
        return CACHES.computeIfAbsent(spec, s -> OrtReferenceCache.of(s.onnxResource()))
                .get(ids, () -> compute(session(spec), ids, spec.pooling()));
    }

    /** The reference vectors of {@code texts} as {@code encoder} tokenizes documents. */
    static List<float[]> ofDocuments(BertEncoder encoder, List<String> texts) throws Exception {
        long[][] ids = ((HfTokenizer) encoder.tokenCounter()).encodeForModel(texts);
        float[][] vectors = new float[ids.length][];
        for (int i = 0; i < ids.length; i++) {
            vectors[i] = of(encoder.spec(), ids[i]);
        }
        return List.of(vectors);
    }

    private static OrtSession session(BertSpec spec) {
        return SESSIONS.computeIfAbsent(
                spec,
                s -> {
                    try {
                        return OrtEnvironment.getEnvironment()
                                .createSession(OrtReferenceCache.resource(s.onnxResource()));
                    } catch (OrtException e) {
                        throw new IllegalStateException("ONNX Runtime cannot open " + s, e);
                    }
                });
    }

    /** Runs ONNX Runtime on one unpadded input and pools + normalises in plain Java. */
    private static float[] compute(OrtSession session, long[] ids, Pooling pooling)
            throws OrtException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
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
                // to unit length in plain Java, not with the encoder's own row kernels
                double squares = 0;
                for (float x : v) {
                    squares += (double) x * x;
                }
                float scale = (float) (1 / Math.max(Math.sqrt(squares), 1e-12));
                for (int j = 0; j < d; j++) {
                    v[j] *= scale;
                }
                return v;
            }
        } finally {
            inputs.values().forEach(OnnxTensor::close);
        }
    }
}
