package dev.cairn.benchmarks;

import dev.cairn.embeddings.EmbeddingCache;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.RetrievalConfig;
import dev.cairn.retrieval.RetrieveRequest;
import dev.cairn.retrieval.RetrieveResult;
import dev.cairn.retrieval.eval.Beir;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.retrieval.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * The retrieve path without HTTP: query embedding, BM25, exact dense search and RRF over SciFact
 * (embedded store, one client), as {@code cairn eval beir} leaves it in its work dir.
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

    private Store store;
    private EmbeddingModel model;
    private KnowledgeBase kb;
    private List<String> queries;
    private int next;

    @Setup(Level.Trial)
    public void open() throws IOException {
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
                ingest.ingestAll("beir", () -> it, r -> {});
            }
        }
        // Queries go through the encoder uncached: every sample pays one query embedding, as a
        // question never asked before does.
        model = EmbeddingModels.defaultModel();
        kb = KnowledgeBase.open(store, model, lucene, RetrievalConfig.defaults());
        Map<String, String> all = Beir.queries(Path.of(corpus).resolve("queries.jsonl"));
        queries = new ArrayList<>(all.values());
        RetrieveResult check = kb.retrieve("beir", RetrieveRequest.of(queries.getFirst()));
        if (check.hits().isEmpty()) {
            throw new IllegalStateException("the benchmark corpus answers nothing: index broken");
        }
    }

    @Benchmark
    public RetrieveResult retrieve() {
        String query = queries.get(next++ % queries.size());
        return kb.retrieve("beir", RetrieveRequest.of(query));
    }

    @TearDown(Level.Trial)
    public void close() {
        kb.close();
        model.close();
        store.close();
    }
}
