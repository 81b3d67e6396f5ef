package dev.cairn.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.embeddings.EmbeddingCache;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.eval.beir.Beir;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.RetrievalConfig;
import dev.cairn.retrieval.RetrieveRequest;
import dev.cairn.retrieval.RetrieveResult;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.server.CairnServer;
import dev.cairn.server.ServerSettings;
import dev.cairn.server.http.Json;
import dev.cairn.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Retrieve over SciFact (embedded store, one client) as {@code cairn eval beir} leaves it in its
 * work dir: in process (query embedding, BM25, dense, graph, RRF, grounding) and over HTTP against
 * a real server on a copy of that dir.
 *
 * <p>Sample time, because the targets are percentiles (p50 <= 30 ms, p95 <= 60 ms over HTTP).
 * Warm-up 3 x 5 s lets the JIT and PyTorch settle; 5 x 10 s samples enough queries for a stable
 * p95; one fork, since the corpus load dominates a fork's cost. Queries rotate over the SciFact
 * queries in file order (deterministic). Setup checks the corpus answers: a query whose own
 * document is not retrieved at all would mean the index is broken, not fast.
 *
 * <p>The query is embedded on every call (no embedding cache), so the numbers include one query
 * embedding each, as for a question never seen before.
 *
 * <p>{@code -p data=DIR} points at a data dir holding namespace {@code beir} (default {@code
 * cairn-eval/scifact}, what {@code cairn eval beir ../shared/datasets/scifact} writes); when it has
 * no such namespace, the first {@code docs} documents of {@code -p corpus=DIR} are ingested.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 10)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "-Dai.djl.offline=true",
            "--enable-native-access=ALL-UNNAMED",
            "--add-modules=jdk.incubator.vector"
        })
public class RetrieveBenchmark {

    @Param("cairn-eval/scifact")
    public String data;

    @Param("../shared/datasets/scifact")
    public String corpus;

    @Param("1000")
    public int docs;

    static final String TOKEN = "bench-admin-secret";

    private Store store;
    private Path serverDir;
    private CairnServer server;
    private HttpClient http;
    private EmbeddingModel model;
    private KnowledgeBase kb;
    private List<String> queries;
    private final AtomicInteger next = new AtomicInteger();

    @Setup(Level.Trial)
    public void open(BenchmarkParams params) throws IOException {
        Path dir = Path.of(data);
        Files.createDirectories(dir);
        store = Store.embedded(dir);
        Path lucene = dir.resolve("lucene").resolve("documents");
        if (store.namespace("beir").isEmpty()) {
            // ingest through the data dir's embedding cache, so a re-run does not re-embed
            store.createNamespace("beir", "benchmark corpus");
            try (EmbeddingCache ingestCache =
                            EmbeddingCache.sqlite(dir.resolve("embedding-cache.db"));
                    EmbeddingModel cached =
                            EmbeddingModels.cached(EmbeddingModels.defaultModel(), ingestCache);
                    KnowledgeBase ingest =
                            KnowledgeBase.open(store, cached, lucene, RetrievalConfig.defaults());
                    Stream<ParsedDocument> corpusDocs = Beir.corpus(Path.of(corpus)).limit(docs)) {
                Iterator<ParsedDocument> it = corpusDocs.iterator();
                ingest.ingestAll("beir", () -> it, dev.cairn.retrieval.IngestMode.REPLACE, r -> {});
            }
        }
        Map<String, String> all = Beir.queries(Path.of(corpus).resolve("queries.jsonl"));
        queries = new ArrayList<>(all.values());
        if (params.getBenchmark().endsWith("retrieveOverHttp")) {
            store.close();
            store = null;
            startServer(dir, lucene);
            return;
        }
        // Queries go through the encoder uncached: every sample pays one query embedding, as a
        // question never asked before does.
        model = EmbeddingModels.defaultModel();
        kb = KnowledgeBase.open(store, model, lucene, RetrievalConfig.defaults());
        RetrieveResult check = kb.retrieve("beir", RetrieveRequest.of(queries.getFirst()));
        if (check.hits().isEmpty()) {
            throw new IllegalStateException("the benchmark corpus answers nothing: index broken");
        }
    }

    /**
     * A real server over a copy of the data dir without its embedding cache, so no query vector
     * comes from an earlier run; the copy keeps the store and the Lucene index, so nothing is
     * re-embedded or re-indexed.
     */
    private void startServer(Path dir, Path lucene) throws IOException {
        serverDir = Files.createTempDirectory("cairn-retrieve-bench-");
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path from : paths.toList()) {
                Path to = serverDir.resolve(dir.relativize(from).toString());
                if (from.getFileName().toString().startsWith("embedding-cache")) {
                    continue;
                }
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(from, to);
                }
            }
        }
        server =
                CairnServer.start(
                        ServerSettings.defaults(serverDir).withPort(0).withAdminToken(TOKEN));
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        if (post(queries.getLast()).path("hits").isEmpty()) {
            throw new IllegalStateException("the benchmark corpus answers nothing: index broken");
        }
    }

    /** In process: the retrieve path alone, the query embedded on every call. */
    @Benchmark
    public RetrieveResult retrieve() {
        String query = queries.get(Math.floorMod(next.getAndIncrement(), queries.size()));
        return kb.retrieve("beir", RetrieveRequest.of(query));
    }

    /**
     * Over HTTP, as an agent runtime calls it: auth, JSON, the retrieve path, the trace. Queries
     * rotate over the SciFact queries; a run asks fewer than there are, so none repeats.
     */
    @Benchmark
    public JsonNode retrieveOverHttp() {
        return post(queries.get(Math.floorMod(next.getAndIncrement(), queries.size() - 1)));
    }

    private JsonNode post(String query) {
        HttpRequest request =
                HttpRequest.newBuilder(
                                URI.create(
                                        "http://localhost:"
                                                + server.port()
                                                + "/v1/namespaces/beir/retrieve"))
                        .header("Authorization", "Bearer " + TOKEN)
                        .header("Content-Type", "application/json")
                        .POST(
                                HttpRequest.BodyPublishers.ofString(
                                        "{\"query\":" + Json.MAPPER.valueToTree(query) + "}"))
                        .build();
        try {
            HttpResponse<String> response =
                    http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(
                        "retrieve answered " + response.statusCode() + ": " + response.body());
            }
            return Json.MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        if (server != null) {
            server.close();
            try (Stream<Path> paths = Files.walk(serverDir)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
            return;
        }
        kb.close();
        model.close();
        store.close();
    }
}
