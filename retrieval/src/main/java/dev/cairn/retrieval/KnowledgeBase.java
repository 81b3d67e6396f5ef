package dev.cairn.retrieval;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.retrieval.dense.DenseIndex;
import dev.cairn.retrieval.fusion.FusedCandidate;
import dev.cairn.retrieval.fusion.ScoredId;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.ingest.Chunker;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.retrieval.lexical.IndexedChunk;
import dev.cairn.retrieval.lexical.LexicalHit;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.retrieval.store.Change;
import dev.cairn.retrieval.store.ChunkDraft;
import dev.cairn.retrieval.store.DocumentDraft;
import dev.cairn.retrieval.store.Store;
import dev.cairn.retrieval.store.StoredChunk;
import dev.cairn.retrieval.store.StoredDocument;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Cairn's knowledge base: ingests documents into the store (truth) and keeps the derived Lucene and
 * dense indexes current from the store's change sequence; answers retrieve calls by running the
 * lexical, dense and graph signals concurrently, each under its own deadline, fusing them, and
 * scoring how well grounded the answer is.
 *
 * <p>Thread-safe. Owns the lexical index and its executors; does not own the store or the model.
 */
public final class KnowledgeBase implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(KnowledgeBase.class.getName());

    /** Documents embedded together during a bulk ingest, so batches fill up across documents. */
    static final int INGEST_GROUP = 16;

    /** How often uncommitted Lucene changes are made durable. */
    static final Duration COMMIT_INTERVAL = Duration.ofSeconds(2);

    private final Store store;
    private final EmbeddingModel model;
    private final LexicalIndex lexical;
    private final DenseIndex dense;
    private final GraphRanker graph;
    private final Chunker chunker;
    private final RetrievalConfig config;
    private final DocumentCatalog catalog;
    private final TraceLog traces;
    private final List<Consumer<Change>> listeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    private final ExecutorService signals =
            Executors.newThreadPerTaskExecutor(
                    Thread.ofVirtual().name("cairn-signal-", 0).factory());
    private final ScheduledExecutorService committer =
            Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().name("cairn-lucene-commit").daemon().factory());
    private final AtomicBoolean dirty = new AtomicBoolean();
    private final Object catchUpLock = new Object();

    private KnowledgeBase(
            Store store,
            EmbeddingModel model,
            LexicalIndex lexical,
            GraphRanker graph,
            RetrievalConfig config) {
        this.store = store;
        this.model = model;
        this.lexical = lexical;
        this.graph = graph;
        this.config = config;
        this.dense =
                store.kind() == Store.Kind.POSTGRES
                        ? DenseIndex.ofStore(store, config.dense())
                        : DenseIndex.exactInMemory(store);
        this.chunker = Chunker.headingAware(model.tokenCounter(), config.chunking());
        this.catalog = new DocumentCatalog(store);
        this.traces = new TraceLog(store.sql(), config.traceRetention());
        long interval = COMMIT_INTERVAL.toMillis();
        committer.scheduleWithFixedDelay(
                this::commitIfDirty, interval, interval, TimeUnit.MILLISECONDS);
    }

    /**
     * Opens the knowledge base over {@code store}, with its Lucene index in {@code indexDir}, and
     * catches the index up with every change it has not applied (a deleted index directory is
     * rebuilt from the store).
     */
    public static KnowledgeBase open(
            Store store,
            EmbeddingModel model,
            Path indexDir,
            GraphRanker graph,
            RetrievalConfig config) {
        LexicalIndex lexical = LexicalIndex.open(indexDir, config.lexical());
        try {
            KnowledgeBase kb = new KnowledgeBase(store, model, lexical, graph, config);
            kb.catchUp();
            return kb;
        } catch (RuntimeException e) {
            lexical.close();
            throw e;
        }
    }

    /** As {@link #open(Store, EmbeddingModel, Path, GraphRanker, RetrievalConfig)}, no graph. */
    public static KnowledgeBase open(
            Store store, EmbeddingModel model, Path indexDir, RetrievalConfig config) {
        return open(store, model, indexDir, GraphRanker.NONE, config);
    }

    public RetrievalConfig config() {
        return config;
    }

    public Store store() {
        return store;
    }

    public EmbeddingModel model() {
        return model;
    }

    /** Called, in sequence order, for every change the derived indexes apply. */
    public void addChangeListener(Consumer<Change> listener) {
        listeners.add(listener);
    }

    // ---- ingestion ---------------------------------------------------------------------

    /**
     * Chunks, embeds and stores a document, replacing its previous version atomically: the old
     * chunks leave every index.
     *
     * @throws NoSuchElementException when the namespace does not exist
     * @throws IllegalArgumentException when the document is over the size limit or empty
     */
    public IngestResult ingest(String namespace, ParsedDocument document) {
        return ingestAll(namespace, List.of(document), r -> {}).getFirst();
    }

    /**
     * Ingests documents in groups, embedding the chunks of a group together; {@code progress} hears
     * of each document once it is stored.
     */
    public List<IngestResult> ingestAll(
            String namespace, Iterable<ParsedDocument> documents, Consumer<IngestResult> progress) {
        requireNamespace(namespace);
        List<IngestResult> results = new ArrayList<>();
        List<ParsedDocument> group = new ArrayList<>();
        for (ParsedDocument document : documents) {
            checkSize(document);
            group.add(document);
            if (group.size() == INGEST_GROUP) {
                results.addAll(ingestGroup(namespace, group, progress));
                group.clear();
            }
        }
        if (!group.isEmpty()) {
            results.addAll(ingestGroup(namespace, group, progress));
        }
        return results;
    }

    private List<IngestResult> ingestGroup(
            String namespace, List<ParsedDocument> group, Consumer<IngestResult> progress) {
        List<List<ChunkDraft>> chunksPerDocument = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (ParsedDocument document : group) {
            List<ChunkDraft> chunks = chunker.chunk(document);
            chunksPerDocument.add(chunks);
            for (ChunkDraft chunk : chunks) {
                texts.add(embeddingText(document.title(), chunk));
            }
        }
        List<float[]> vectors = texts.isEmpty() ? List.of() : model.embedDocuments(texts);
        List<IngestResult> results = new ArrayList<>();
        int next = 0;
        for (int d = 0; d < group.size(); d++) {
            ParsedDocument document = group.get(d);
            List<ChunkDraft> embedded = new ArrayList<>();
            for (ChunkDraft chunk : chunksPerDocument.get(d)) {
                embedded.add(chunk.withEmbedding(vectors.get(next++), model.id()));
            }
            StoredDocument stored = store.replaceDocument(namespace, draft(document), embedded);
            IngestResult result = new IngestResult(stored.id(), stored.version(), embedded.size());
            results.add(result);
            progress.accept(result);
        }
        catchUp();
        return results;
    }

    /** Title and headings give a chunk the context its own words may lack. */
    static String embeddingText(String title, ChunkDraft chunk) {
        StringBuilder text = new StringBuilder();
        if (!title.isBlank()) {
            text.append(title).append('\n');
        }
        for (String heading : chunk.headingPath()) {
            if (!heading.equals(title)) {
                text.append(heading).append('\n');
            }
        }
        return text.append(chunk.text()).toString();
    }

    private void checkSize(ParsedDocument document) {
        long bytes = document.body().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > config.maxDocumentBytes()) {
            throw new PayloadTooLargeException(
                    "document '"
                            + document.id()
                            + "' has "
                            + bytes
                            + " bytes, over the limit of "
                            + config.maxDocumentBytes(),
                    config.maxDocumentBytes());
        }
        if (document.body().isBlank()) {
            throw new IllegalArgumentException("document '" + document.id() + "' has no content");
        }
    }

    private static DocumentDraft draft(ParsedDocument d) {
        Map<String, String> metadata = new LinkedHashMap<>(d.metadata());
        return new DocumentDraft(
                d.id(),
                d.title(),
                d.format(),
                d.source(),
                d.authority(),
                d.tags(),
                metadata,
                d.body());
    }

    /** Deletes a document from the store and every index; false when there was none. */
    public boolean delete(String namespace, String documentId) {
        requireNamespace(namespace);
        boolean deleted = store.deleteDocument(namespace, documentId);
        catchUp();
        return deleted;
    }

    private void requireNamespace(String namespace) {
        if (store.namespace(namespace).isEmpty()) {
            throw new NoSuchElementException("namespace '" + namespace + "' does not exist");
        }
    }

    // ---- derived indexes ---------------------------------------------------------------

    /**
     * Applies every store change the lexical index has not seen yet, in sequence order, to the
     * lexical and dense indexes, the document catalog and the listeners.
     */
    public void catchUp() {
        synchronized (catchUpLock) {
            long seq = lexical.lastAppliedSeq();
            while (true) {
                List<Change> changes = store.changesSince(seq, 500);
                if (changes.isEmpty()) {
                    return;
                }
                for (Change change : changes) {
                    apply(change);
                    seq = change.seq();
                }
                lexical.setLastAppliedSeq(seq);
                dirty.set(true);
            }
        }
    }

    private void apply(Change change) {
        String ns = change.namespace();
        switch (change.kind()) {
            case DOCUMENT -> {
                Optional<StoredDocument> document =
                        change.op() == Change.Op.DELETE
                                ? Optional.empty()
                                : store.document(ns, change.entityId());
                if (document.isEmpty()) {
                    lexical.deleteDocument(ns, change.entityId());
                    dense.removeDocument(ns, change.entityId());
                    catalog.remove(ns, change.entityId());
                } else {
                    List<StoredChunk> chunks = store.chunks(ns, change.entityId());
                    lexical.upsertDocument(
                            ns,
                            change.entityId(),
                            chunks.stream()
                                    .map(
                                            c ->
                                                    new IndexedChunk(
                                                            c.id(),
                                                            document.get().title(),
                                                            c.headingPath(),
                                                            c.text()))
                                    .toList());
                    dense.replaceDocument(ns, change.entityId(), chunks);
                    catalog.put(document.get());
                }
            }
            case NAMESPACE -> {
                if (change.op() == Change.Op.DELETE) {
                    lexical.deleteNamespace(ns);
                    dense.removeNamespace(ns);
                    catalog.removeNamespace(ns);
                }
            }
            default -> {
                // other kinds belong to other components, which listen below
            }
        }
        for (Consumer<Change> listener : listeners) {
            listener.accept(change);
        }
    }

    private void commitIfDirty() {
        if (dirty.getAndSet(false)) {
            try {
                synchronized (catchUpLock) {
                    lexical.commit();
                }
            } catch (RuntimeException e) {
                dirty.set(true);
                LOG.log(Level.WARNING, "lexical index commit failed; will retry", e);
            }
        }
    }

    // ---- retrieval ---------------------------------------------------------------------

    /**
     * Answers a retrieve call and persists its trace.
     *
     * @throws NoSuchElementException when the namespace does not exist
     */
    public RetrieveResult retrieve(String namespace, RetrieveRequest request) {
        long start = System.nanoTime();
        requireNamespace(namespace);
        if (store.lastChangeSeq() > lexical.lastAppliedSeq()) {
            catchUp(); // another server wrote since
        }
        Map<Signal, CompletableFuture<List<ScoredId>>> running = new EnumMap<>(Signal.class);
        Map<String, String> explanations = new HashMap<>();
        CompletableFuture<GraphContext> graphContext = new CompletableFuture<>();
        int n = request.candidates();
        if (request.weights().weight(Signal.LEXICAL) > 0) {
            running.put(
                    Signal.LEXICAL,
                    CompletableFuture.supplyAsync(
                            () -> lexicalSignal(namespace, request, n, explanations), signals));
        }
        if (request.weights().weight(Signal.DENSE) > 0) {
            running.put(
                    Signal.DENSE,
                    CompletableFuture.supplyAsync(
                            () ->
                                    dense
                                            .search(namespace, model.embedQuery(request.query()), n)
                                            .stream()
                                            .map(h -> new ScoredId(h.chunkId(), h.similarity()))
                                            .toList(),
                            signals));
        }
        if (request.weights().weight(Signal.GRAPH) > 0 && graph != GraphRanker.NONE) {
            running.put(
                    Signal.GRAPH,
                    CompletableFuture.supplyAsync(
                            () -> {
                                GraphRanker.Ranking ranking =
                                        graph.rank(namespace, request.query(), n);
                                graphContext.complete(ranking.context());
                                return ranking.chunks();
                            },
                            signals));
        }

        Map<Signal, List<ScoredId>> rankings = new EnumMap<>(Signal.class);
        List<SignalOutcome> outcomes = new ArrayList<>();
        Map<Signal, Double> millis = new EnumMap<>(Signal.class);
        for (Signal signal : Signal.values()) {
            CompletableFuture<List<ScoredId>> future = running.get(signal);
            if (future == null) {
                String why =
                        request.weights().weight(signal) > 0
                                ? "no "
                                        + signal.name().toLowerCase(java.util.Locale.ROOT)
                                        + " signal is configured"
                                : "weight 0";
                outcomes.add(new SignalOutcome(signal, SignalOutcome.Status.SKIPPED, 0, 0, why));
                continue;
            }
            Duration deadline = deadline(signal);
            long remaining = deadline.toNanos() - (System.nanoTime() - start);
            try {
                List<ScoredId> ranking = future.get(Math.max(0, remaining), TimeUnit.NANOSECONDS);
                rankings.put(signal, ranking);
                double ms = elapsedMs(start);
                millis.put(signal, ms);
                outcomes.add(
                        new SignalOutcome(signal, SignalOutcome.Status.OK, ms, ranking.size(), ""));
            } catch (TimeoutException e) {
                future.cancel(true);
                millis.put(signal, (double) deadline.toMillis());
                outcomes.add(
                        new SignalOutcome(
                                signal,
                                SignalOutcome.Status.TIMEOUT,
                                deadline.toMillis(),
                                0,
                                "no answer within " + deadline.toMillis() + " ms"));
            } catch (ExecutionException | CancellationException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                LOG.log(Level.WARNING, signal + " signal failed in namespace " + namespace, cause);
                double ms = elapsedMs(start);
                millis.put(signal, ms);
                outcomes.add(
                        new SignalOutcome(
                                signal,
                                SignalOutcome.Status.FAILED,
                                ms,
                                0,
                                cause.getClass().getSimpleName()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while retrieving", e);
            }
        }

        long fusionStart = System.nanoTime();
        List<FusedCandidate> fused =
                request.fusion().fusion(request.k()).fuse(rankings, request.weights());
        List<TraceCandidate> candidates = new ArrayList<>();
        List<FusedCandidate> selected = new ArrayList<>();
        for (FusedCandidate candidate : fused) {
            String documentId = documentOf(candidate.id());
            boolean accepted =
                    request.filters().isEmpty()
                            || catalog.document(namespace, documentId)
                                    .map(request.filters()::accepts)
                                    .orElse(false);
            boolean select = accepted && selected.size() < request.topK();
            if (select) {
                selected.add(candidate);
            }
            candidates.add(
                    new TraceCandidate(
                            candidate.id(),
                            documentId,
                            candidate.score(),
                            candidate.ranks(),
                            candidate.scores(),
                            select,
                            !accepted,
                            explanations.getOrDefault(candidate.id(), "")));
        }
        List<RetrievedHit> hits = hydrate(namespace, selected);
        double fusionMs = (System.nanoTime() - fusionStart) / 1e6;

        double grounding = Grounding.score(hits);
        Plan plan = config.grounding().plan(grounding);
        Timings timings =
                new Timings(
                        millis.getOrDefault(Signal.LEXICAL, 0.0),
                        millis.getOrDefault(Signal.DENSE, 0.0),
                        millis.getOrDefault(Signal.GRAPH, 0.0),
                        fusionMs,
                        elapsedMs(start));
        GraphContext context = graphContext.getNow(GraphContext.EMPTY);
        RetrieveResult result =
                new RetrieveResult(
                        UUID.randomUUID().toString(),
                        request.query(),
                        hits,
                        candidates,
                        context,
                        grounding,
                        plan,
                        timings,
                        outcomes);
        traces.save(namespace, trace(namespace, request, result));
        return result;
    }

    private List<ScoredId> lexicalSignal(
            String namespace, RetrieveRequest request, int n, Map<String, String> explanations) {
        List<LexicalHit> hits = lexical.search(namespace, request.query(), n, request.explain());
        List<ScoredId> ranking = new ArrayList<>(hits.size());
        for (LexicalHit hit : hits) {
            ranking.add(new ScoredId(hit.chunkId(), hit.score()));
            hit.explanation()
                    .ifPresent(
                            text -> {
                                synchronized (explanations) {
                                    explanations.put(hit.chunkId(), text);
                                }
                            });
        }
        return ranking;
    }

    private Duration deadline(Signal signal) {
        return switch (signal) {
            case LEXICAL -> config.lexicalTimeout();
            case DENSE -> config.denseTimeout();
            case GRAPH -> config.graphTimeout();
        };
    }

    private List<RetrievedHit> hydrate(String namespace, List<FusedCandidate> selected) {
        if (selected.isEmpty()) {
            return List.of();
        }
        Map<String, StoredChunk> chunks = new HashMap<>();
        for (StoredChunk chunk :
                store.chunks(namespace, selected.stream().map(FusedCandidate::id).toList())) {
            chunks.put(chunk.id(), chunk);
        }
        List<RetrievedHit> hits = new ArrayList<>();
        for (FusedCandidate candidate : selected) {
            StoredChunk chunk = chunks.get(candidate.id());
            if (chunk == null) {
                continue; // deleted between search and hydration
            }
            Optional<StoredDocument> document = catalog.document(namespace, chunk.documentId());
            hits.add(
                    new RetrievedHit(
                            chunk.id(),
                            chunk.documentId(),
                            document.map(StoredDocument::title).orElse(""),
                            chunk.text(),
                            chunk.heading(),
                            candidate.score(),
                            document.map(StoredDocument::authority)
                                    .orElse(dev.cairn.retrieval.store.Authority.DEFAULT),
                            candidate.ranks(),
                            candidate.scores()));
        }
        return hits;
    }

    private static StoredTrace trace(
            String namespace, RetrieveRequest request, RetrieveResult result) {
        Map<String, RetrievedHit> hits = new HashMap<>();
        result.hits().forEach(h -> hits.put(h.chunkId(), h));
        List<StoredTrace.Entry> entries = new ArrayList<>();
        int position = 0;
        for (TraceCandidate c : result.candidates()) {
            RetrievedHit hit = hits.get(c.chunkId());
            entries.add(
                    new StoredTrace.Entry(
                            position++,
                            c.chunkId(),
                            c.documentId(),
                            c.fused(),
                            c.ranks(),
                            c.scores(),
                            hit != null,
                            hit == null ? "" : hit.title(),
                            hit == null ? "" : hit.heading(),
                            hit == null ? "" : hit.text(),
                            hit == null
                                    ? dev.cairn.retrieval.store.Authority.DEFAULT
                                    : hit.authority()));
        }
        Map<String, Object> requestView = new LinkedHashMap<>();
        requestView.put("query", request.query());
        requestView.put("topK", request.topK());
        requestView.put("candidates", request.candidates());
        Map<String, Double> weights = new LinkedHashMap<>();
        for (Signal s : Signal.values()) {
            weights.put(s.name().toLowerCase(java.util.Locale.ROOT), request.weights().weight(s));
        }
        requestView.put("weights", weights);
        requestView.put("k", request.k());
        requestView.put("fusion", request.fusion().name().toLowerCase(java.util.Locale.ROOT));
        return new StoredTrace(
                result.traceId(),
                namespace,
                request.query(),
                requestView,
                result.grounding(),
                result.plan(),
                result.timings(),
                result.signals(),
                Instant.now(),
                entries);
    }

    /** The stored trace of an earlier retrieve call. */
    public Optional<StoredTrace> trace(String namespace, String traceId) {
        return traces.find(namespace, traceId);
    }

    static String documentOf(String chunkId) {
        int hash = chunkId.lastIndexOf('#');
        return hash < 0 ? chunkId : chunkId.substring(0, hash);
    }

    private static double elapsedMs(long start) {
        return (System.nanoTime() - start) / 1e6;
    }

    /** Commits the lexical index and stops the executors. */
    @Override
    public void close() {
        committer.shutdownNow();
        signals.shutdownNow();
        try {
            synchronized (catchUpLock) {
                lexical.commit();
            }
        } finally {
            lexical.close();
        }
    }
}
