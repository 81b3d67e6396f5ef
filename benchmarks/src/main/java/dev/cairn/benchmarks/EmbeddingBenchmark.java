package dev.cairn.benchmarks;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.EmbeddingModels;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * bge-small-en-v1.5 on the same texts, side by side: Cairn's DJL/PyTorch encoder (its default: int8
 * passes, documents and queries, where the CPU has VNNI and no AMX, else bfloat16 document passes
 * where it has AMX or AVX-512 BF16, else float32; and each of float32, int8 and bfloat16 forced)
 * against ONNX Runtime (float32, the very ONNX file our weights come from; and langchain4j's int8
 * {@code -q} export of the same model, dynamically quantised; intra-op threads = cores).
 *
 * <ul>
 *   <li>{@code *Documents}: documents per second for the first {@value #DOCS} SciFact abstracts
 *       ({@code title + " " + text}), batches of {@value #BATCH}. Both sides tokenise inside the
 *       measurement and both get the same length bucketing (sorted by token count, each batch
 *       padded to its own longest input), so the comparison is of the forward passes.
 *   <li>{@code *Query}: latency of one short query ({@link Mode#SampleTime}; read p50): {@code
 *       oursQuery} the default, {@code oursFp16Query} the fp16 weights (the query path wherever
 *       int8 is off).
 * </ul>
 *
 * <p>Counts: one fork (the JVM is not what is measured; the native libraries are), one warm-up
 * iteration of 10 s (PyTorch and ONNX Runtime pick kernels on first calls; one pass over {@value
 * #DOCS} documents takes several seconds), three measured iterations of 10 s. On a shared machine
 * pass shorter iterations on the command line and treat the numbers as noisy. {@code
 * Models.setup()} checks that the two implementations agree (cosine >= 0.9999; 0.999 for an int8
 * query) before measuring.
 *
 * <p>The corpus is read from {@code -Dcairn.scifact.corpus=...} or the {@code corpus} parameter.
 */
@Fork(
        value = 1,
        jvmArgsAppend = {
            "-Xmx4g",
            "-Dai.djl.offline=true",
            "--enable-native-access=ALL-UNNAMED",
            "--add-modules=jdk.incubator.vector"
        })
@Warmup(iterations = 1, time = 10)
@Measurement(iterations = 3, time = 10)
public class EmbeddingBenchmark {

    /** Documents per measured operation. */
    static final int DOCS = 256;

    /** Texts per forward pass for documents. */
    static final int BATCH = 32;

    static final String QUERY = "Does aspirin reduce the risk of heart attack?";

    /** Cairn's switch for int8 document passes (see docs/embeddings.md). */
    static final String INT8_PROPERTY = "cairn.embeddings.int8";

    static final String BF16_PROPERTY = "cairn.embeddings.bf16";

    /** langchain4j's dynamically quantised export, from {@code ...-bge-small-en-v15-q}. */
    static final String ORT_INT8_MODEL = "bge-small-en-v1.5-q.onnx";

    private static final String BGE_PREFIX =
            "Represent this sentence for searching relevant passages: ";

    /** Shared, expensive objects: both models and the texts. */
    @State(Scope.Benchmark)
    public static class Models {

        @Param({"/work/shared/datasets/scifact/corpus.jsonl"})
        public String corpus;

        List<String> documents;
        EmbeddingModel ours;
        EmbeddingModel oursFloat32;
        OrtEnvironment env;
        OrtSession session;
        OrtSession int8Session;
        HuggingFaceTokenizer tokenizer;

        EmbeddingModel oursInt8;
        EmbeddingModel oursBfloat16;

        /** bge-small with the document kernels set as given, whatever the JVM says. */
        private static EmbeddingModel with(String bf16, String int8) {
            Map<String, String> wanted = Map.of(BF16_PROPERTY, bf16, INT8_PROPERTY, int8);
            Map<String, String> before = new HashMap<>();
            wanted.forEach(
                    (key, value) -> {
                        before.put(key, System.getProperty(key));
                        System.setProperty(key, value);
                    });
            try {
                return EmbeddingModels.bgeSmallEnV15();
            } finally {
                before.forEach(
                        (key, value) -> {
                            if (value == null) {
                                System.clearProperty(key);
                            } else {
                                System.setProperty(key, value);
                            }
                        });
            }
        }

        @Setup
        public void setup() throws Exception {
            String path = System.getProperty("cairn.scifact.corpus", corpus);
            documents = readScifact(Path.of(path), DOCS);
            ours = EmbeddingModels.bgeSmallEnV15();
            oursFloat32 = with("false", "false");
            oursInt8 = with("false", "true");
            oursBfloat16 = with("true", "false");
            env = OrtEnvironment.getEnvironment();
            OrtSession.SessionOptions options = new OrtSession.SessionOptions();
            options.setIntraOpNumThreads(Runtime.getRuntime().availableProcessors());
            options.setInterOpNumThreads(1);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            session = env.createSession(resource("bge-small-en-v1.5.onnx"), options);
            int8Session = env.createSession(resource(ORT_INT8_MODEL), options);
            try (InputStream in = resourceStream("bge-small-en-v1.5-tokenizer.json")) {
                tokenizer =
                        HuggingFaceTokenizer.newInstance(
                                in,
                                Map.of(
                                        "addSpecialTokens", "true",
                                        "truncation", "true",
                                        "maxLength", "512",
                                        "padding", "false"));
            }
            List<String> sample = documents.subList(0, 16);
            List<float[]> a = oursFloat32.embedDocuments(sample);
            List<float[]> b = ortEmbed(this, session, sample);
            List<float[]> reduced = ours.embedDocuments(sample);
            List<float[]> quantised = oursInt8.embedDocuments(sample);
            List<float[]> ortQuantised = ortEmbed(this, int8Session, sample);
            double[] worst = {1, 1, 1};
            for (int i = 0; i < sample.size(); i++) {
                double c = cosine(a.get(i), b.get(i));
                if (c < 0.9999) {
                    throw new IllegalStateException(
                            "implementations disagree on doc " + i + ": " + c);
                }
                worst[0] = Math.min(worst[0], cosine(reduced.get(i), a.get(i)));
                worst[1] = Math.min(worst[1], cosine(quantised.get(i), a.get(i)));
                worst[2] = Math.min(worst[2], cosine(ortQuantised.get(i), b.get(i)));
            }
            System.out.printf(
                    "lowest cosine to float32 over %d documents: %s %.5f, %s %.5f; ONNX Runtime"
                            + " -q %.5f%n",
                    sample.size(), ours.id(), worst[0], oursInt8.id(), worst[1], worst[2]);
            float[] ortQuery = ortEmbed(this, session, List.of(BGE_PREFIX + QUERY)).getFirst();
            double q = cosine(oursFloat32.embedQuery(QUERY), ortQuery);
            if (q < 0.9999) {
                throw new IllegalStateException("implementations disagree on the query: " + q);
            }
            // int8, where it is the default, runs queries too: close to float32, not equal
            double reducedQuery = cosine(ours.embedQuery(QUERY), ortQuery);
            System.out.printf("query cosine to float32: %s %.5f%n", ours.id(), reducedQuery);
            if (reducedQuery < 0.999) {
                throw new IllegalStateException(
                        ours.id() + " strays from float32 on the query: " + reducedQuery);
            }
        }

        @TearDown
        public void tearDown() throws OrtException {
            ours.close();
            oursFloat32.close();
            oursInt8.close();
            oursBfloat16.close();
            session.close();
            int8Session.close();
            tokenizer.close();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(DOCS)
    public List<float[]> oursDocuments(Models m) {
        return m.ours.embedDocuments(m.documents);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(DOCS)
    public List<float[]> oursFloat32Documents(Models m) {
        return m.oursFloat32.embedDocuments(m.documents);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(DOCS)
    public List<float[]> oursInt8Documents(Models m) {
        return m.oursInt8.embedDocuments(m.documents);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(DOCS)
    public List<float[]> oursBfloat16Documents(Models m) {
        return m.oursBfloat16.embedDocuments(m.documents);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(DOCS)
    public List<float[]> onnxRuntimeDocuments(Models m) throws OrtException {
        return ortEmbed(m, m.session, m.documents);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(DOCS)
    public List<float[]> onnxRuntimeInt8Documents(Models m) throws OrtException {
        return ortEmbed(m, m.int8Session, m.documents);
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public float[] oursQuery(Models m) {
        return m.ours.embedQuery(QUERY);
    }

    /** A query on the fp16 weights, the query path wherever int8 is off. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public float[] oursFp16Query(Models m) {
        return m.oursFloat32.embedQuery(QUERY);
    }

    /** A query through the int8 short pass, whether or not int8 is this CPU's default. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public float[] oursInt8Query(Models m) {
        return m.oursInt8.embedQuery(QUERY);
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public float[] onnxRuntimeQuery(Models m) throws OrtException {
        return ortEmbed(m, m.session, List.of(BGE_PREFIX + QUERY)).getFirst();
    }

    /** ONNX Runtime with the same bucketing as ours: sort by length, batches of BATCH, CLS, L2. */
    static List<float[]> ortEmbed(Models m, OrtSession session, List<String> texts)
            throws OrtException {
        Encoding[] encodings = m.tokenizer.batchEncode(texts);
        Integer[] order = new Integer[texts.size()];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparingInt(i -> encodings[i].getIds().length));
        float[][] out = new float[texts.size()][];
        for (int start = 0; start < order.length; start += BATCH) {
            int end = Math.min(order.length, start + BATCH);
            int b = end - start;
            int t = 0;
            for (int j = start; j < end; j++) {
                t = Math.max(t, encodings[order[j]].getIds().length);
            }
            long[] ids = new long[b * t];
            long[] mask = new long[b * t];
            for (int j = 0; j < b; j++) {
                long[] row = encodings[order[start + j]].getIds();
                System.arraycopy(row, 0, ids, j * t, row.length);
                Arrays.fill(mask, j * t, j * t + row.length, 1L);
            }
            long[] shape = {b, t};
            Map<String, OnnxTensor> inputs = new HashMap<>();
            try {
                inputs.put(
                        "input_ids", OnnxTensor.createTensor(m.env, LongBuffer.wrap(ids), shape));
                inputs.put(
                        "attention_mask",
                        OnnxTensor.createTensor(m.env, LongBuffer.wrap(mask), shape));
                inputs.put(
                        "token_type_ids",
                        OnnxTensor.createTensor(m.env, LongBuffer.wrap(new long[b * t]), shape));
                try (OrtSession.Result result = session.run(inputs)) {
                    float[][][] hidden = (float[][][]) result.get(0).getValue();
                    for (int j = 0; j < b; j++) {
                        out[order[start + j]] = normalise(hidden[j][0]);
                    }
                }
            } finally {
                inputs.values().forEach(OnnxTensor::close);
            }
        }
        return List.of(out);
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

    /** The first {@code n} documents of a BEIR {@code corpus.jsonl}: {@code title + " " + text}. */
    static List<String> readScifact(Path corpus, int n) {
        if (!Files.isRegularFile(corpus)) {
            throw new IllegalArgumentException(
                    "SciFact corpus not found: "
                            + corpus
                            + " (set -Dcairn.scifact.corpus or -p corpus=)");
        }
        try (var lines = Files.lines(corpus)) {
            List<String> docs = new ArrayList<>(n);
            lines.limit(n)
                    .forEach(line -> docs.add(field(line, "title") + " " + field(line, "text")));
            if (docs.size() < n) {
                throw new IllegalArgumentException(corpus + " has fewer than " + n + " documents");
            }
            return docs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The string value of a top-level field of one flat JSON object (enough for BEIR lines). */
    static String field(String json, String name) {
        String marker = "\"" + name + "\":";
        int at = json.indexOf(marker);
        if (at < 0) {
            return "";
        }
        int i = json.indexOf('"', at + marker.length()) + 1;
        StringBuilder sb = new StringBuilder();
        while (i < json.length()) {
            char c = json.charAt(i++);
            if (c == '"') {
                break;
            }
            if (c == '\\') {
                char e = json.charAt(i++);
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(json.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> sb.append(e);
                }
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = resourceStream(name)) {
            return in.readAllBytes();
        }
    }

    private static InputStream resourceStream(String name) {
        InputStream in = EmbeddingBenchmark.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException("classpath resource missing: " + name);
        }
        return in;
    }
}
