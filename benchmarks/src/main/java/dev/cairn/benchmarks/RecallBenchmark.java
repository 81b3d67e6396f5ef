package dev.cairn.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.memory.Memory;
import dev.cairn.memory.MemoryLifecycle;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.ScoredMemory;
import dev.cairn.memory.service.RecallMode;
import dev.cairn.memory.service.RecallRequest;
import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.memory.store.MemoryRow;
import dev.cairn.server.CairnServer;
import dev.cairn.server.ServerSettings;
import dev.cairn.server.http.Json;
import dev.cairn.store.Namespace;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of one memory recall at 10,000 memories in one namespace, embedded store, warm: over HTTP
 * (what an agent runtime sees: auth, JSON, the recall path, context assembly) and in process (the
 * recall path alone). Sample-time mode, so the JMH output has p50 and p95.
 *
 * <p>Setup starts a real server on a temporary data dir and writes the memories straight through
 * the {@link MemoryRepository} with seeded synthetic text and seeded random unit vectors: the
 * benchmark measures the recall path, not embedding quality, and embedding 10,000 texts with BERT
 * would dominate setup. Queries are embedded by the real model on every call, as in production:
 * each call asks one of the 4,536 subject-verb-object questions not asked before in the run. Before
 * measuring, setup checks that the HTTP and in-process paths return the same memories for the same
 * query.
 *
 * <p>Counts: 3 warm-up iterations of 5 s reach a steady state (Lucene and the memory table are
 * loaded by the first recall, the JIT settles within the first few hundred calls); 5 measured
 * iterations of 5 s give a few thousand samples, enough for a stable p95; one fork, because the
 * setup (model load, 10,000 rows) is expensive and the run-to-run spread is far below the targets.
 * Run:
 *
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -cp "benchmarks/target/classes:$(cat benchmarks/target/cp.txt)" org.openjdk.jmh.Main RecallBenchmark
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "-Dai.djl.offline=true",
            "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow",
            "--add-modules=jdk.incubator.vector"
        })
public class RecallBenchmark {

    static final long SEED = 20261122L;
    static final String NS = "bench";
    static final String TOKEN = "bench-admin-secret";

    @Param("10000")
    public int memories;

    /** HYBRID is production; LEXICAL skips the query embedding and shows what BERT costs. */
    @Param({"HYBRID", "LEXICAL"})
    public String mode;

    private static final String[] SUBJECTS = {
        "the deploy pipeline",
        "the staging cluster",
        "Maria",
        "Jon",
        "the billing service",
        "the search index",
        "the on-call rota",
        "the design review",
        "the mobile app",
        "the data warehouse",
        "the VPN",
        "the release train",
        "the team offsite",
        "the CI runners",
        "the payments API",
        "the customer portal",
        "the backup job",
        "the feature flag service"
    };
    private static final String[] VERBS = {
        "moved to",
        "depends on",
        "was broken by",
        "prefers",
        "is owned by",
        "runs on",
        "was migrated to",
        "needs approval from",
        "is scheduled for",
        "was rolled back after",
        "reports to",
        "is blocked on",
        "was tuned for",
        "alerts"
    };
    private static final String[] OBJECTS = {
        "Kubernetes 1.29",
        "PostgreSQL 16",
        "the Friday freeze",
        "weekly reviews",
        "team atlas",
        "a new region in Frankfurt",
        "the Q3 roadmap",
        "a memory leak",
        "dark mode",
        "vegetarian food",
        "window seats",
        "the incident in March",
        "canary deployments",
        "Terraform modules",
        "green tea",
        "the security audit",
        "hourly snapshots",
        "Grafana"
    };

    private Path dataDir;
    private CairnServer server;
    private HttpClient http;
    private List<String> queries;
    private final AtomicInteger next = new AtomicInteger();

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dataDir = Files.createTempDirectory("cairn-recall-bench-");
        server =
                CairnServer.start(
                        ServerSettings.defaults(dataDir).withPort(0).withAdminToken(TOKEN));
        // the benchmark's recalls read every user's memories, as they did before namespaces had a
        // recall scope
        server.store().createNamespace(NS, "recall benchmark", Namespace.RecallScope.NAMESPACE);
        int dims = server.store().config().dimensions();
        String modelId = server.memory().embeddingModelId();
        Random random = new Random(SEED);
        MemoryLifecycle lifecycle = MemoryLifecycle.defaults();
        MemoryRepository repository = MemoryRepository.over(server.store());
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        List<MemoryRow> batch = new ArrayList<>();
        for (int i = 0; i < memories; i++) {
            String text = sentence(random) + " (note " + i + ")";
            MemoryType type = MemoryType.values()[random.nextInt(MemoryType.values().length)];
            Memory m =
                    lifecycle.create(
                            String.format("mem_bench_%06d", i),
                            NewMemory.of(
                                    dev.cairn.memory.Scope.of(NS, "user" + (i % 20), ""),
                                    type,
                                    text),
                            modelId,
                            t0.plus(Duration.ofMinutes(i)));
            batch.add(new MemoryRow(m, unitVector(random, dims)));
            if (batch.size() == 1000) {
                repository.write(NS, batch, List.of());
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            repository.write(NS, batch, List.of());
        }
        server.memory().maintain(); // catches the BM25 replica up from the change sequence
        // every subject-verb-object question once, shuffled: no query repeats within a run, so
        // each one is embedded by the model, never served by the embedding cache
        queries = new ArrayList<>();
        for (String subject : SUBJECTS) {
            for (String verb : VERBS) {
                for (String object : OBJECTS) {
                    queries.add(subject + " " + verb + " " + object + "?");
                }
            }
        }
        Collections.shuffle(queries, random);
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        // the first recall loads the namespace's memory table and warms the model
        server.memory().recall(request(queries.getLast()));
        checkPathsAgree();
    }

    private void checkPathsAgree() throws IOException {
        String q = queries.get(queries.size() - 2);
        List<String> inProcess =
                server
                        .memory()
                        .recall(RecallRequest.of(NS, q).withThreshold(0.0))
                        .memories()
                        .stream()
                        .map(ScoredMemory::id)
                        .toList();
        JsonNode answer = Json.MAPPER.readTree(post(q));
        List<String> overHttp = new ArrayList<>();
        answer.path("memories").forEach(m -> overHttp.add(m.at("/memory/id").asText()));
        if (inProcess.isEmpty() || overHttp.size() != inProcess.size()) {
            throw new IllegalStateException(
                    "HTTP and in-process recall disagree: " + overHttp + " vs " + inProcess);
        }
        if (!inProcess.equals(overHttp)) {
            // Known open issue (see the issue 6 report): on this synthetic corpus consecutive
            // recalls of one query can order tied memories differently; logged, not fatal.
            System.err.println(
                    "WARNING: HTTP and in-process recall order differ: "
                            + overHttp
                            + " vs "
                            + inProcess);
        }
    }

    /** The next query never asked before in this run; wraps only after all of them. */
    private String nextQuery() {
        // the last two were asked during setup; an atomic counter keeps queries unique when JMH
        // runs the benchmark on several threads (-t 16: sixteen agents at once)
        String q = queries.get(Math.floorMod(next.getAndIncrement(), queries.size() - 2));
        return q;
    }

    private RecallRequest request(String query) {
        return RecallRequest.of(NS, query)
                .withThreshold(0.0)
                .withTimeout(Duration.ofSeconds(30))
                .withMode(RecallMode.valueOf(mode));
    }

    private static String sentence(Random random) {
        return SUBJECTS[random.nextInt(SUBJECTS.length)]
                + " "
                + VERBS[random.nextInt(VERBS.length)]
                + " "
                + OBJECTS[random.nextInt(OBJECTS.length)]
                + " and "
                + VERBS[random.nextInt(VERBS.length)]
                + " "
                + OBJECTS[random.nextInt(OBJECTS.length)];
    }

    private static float[] unitVector(Random random, int dims) {
        float[] v = new float[dims];
        double norm = 0;
        for (int i = 0; i < dims; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < dims; i++) {
            v[i] *= inv;
        }
        return v;
    }

    private String post(String query) {
        String body =
                "{\"query\":"
                        + Json.MAPPER.valueToTree(query).toString()
                        + ",\"threshold\":0.0,\"timeoutMs\":30000,\"mode\":\""
                        + mode
                        + "\"}";
        HttpRequest request =
                HttpRequest.newBuilder(
                                URI.create(
                                        "http://localhost:"
                                                + server.port()
                                                + "/v1/namespaces/"
                                                + NS
                                                + "/recall"))
                        .header("Authorization", "Bearer " + TOKEN)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build();
        try {
            HttpResponse<String> response =
                    http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("recall answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Benchmark
    public String recallOverHttp() {
        return post(nextQuery());
    }

    @Benchmark
    public int recallInProcess() {
        return server.memory().recall(request(nextQuery())).memories().size();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        server.close();
        try (Stream<Path> paths = Files.walk(dataDir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
