package dev.cairn.retrieval;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.retrieval.dense.DenseHit;
import dev.cairn.retrieval.dense.DenseIndex;
import dev.cairn.retrieval.feedback.ActiveAdaptations;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.AdaptationStore;
import dev.cairn.retrieval.feedback.AppliedAdaptation;
import dev.cairn.retrieval.feedback.FeedbackLog;
import dev.cairn.retrieval.feedback.JudgedPrior;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.retrieval.feedback.LearnedFusion;
import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.retrieval.feedback.Tuner;
import dev.cairn.retrieval.fusion.FusedCandidate;
import dev.cairn.retrieval.fusion.Fusion;
import dev.cairn.retrieval.fusion.ScoredId;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.retrieval.lexical.LexicalHit;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.retrieval.search.HybridSearch;
import dev.cairn.retrieval.search.Ranking;
import dev.cairn.retrieval.search.SignalRun;
import dev.cairn.retrieval.search.SignalTask;
import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.StoredChunk;
import dev.cairn.retrieval.store.StoredDocument;
import dev.cairn.store.Store;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Cairn's knowledge base: ingests documents into the store (truth, through {@link KnowledgeIngest})
 * and keeps the derived Lucene and dense indexes current from the store's change sequence; answers
 * retrieve calls on the one hybrid search core ({@link HybridSearch}: the lexical, dense and graph
 * signals concurrently, each under its own deadline, then fusion), and adds what is retrieve's own:
 * supersession, filters, hydration, the grounding score and the trace. A namespace's active query
 * adapter ({@link #tune}) maps the query embedding before the dense search; a namespace without one
 * is searched exactly as before.
 *
 * <p>Why about 570 lines: the retrieve call is one pipeline over this class's indexes (signals,
 * fusion, supersession, filters, hydration, grounding, trace), about 250 lines that share the
 * request's state; everything else is a few lines handing over to the classes that do the work
 * ({@link KnowledgeIngest}, {@link DocumentRepository}, {@link TraceLog}, {@link Tuner}).
 *
 * <p>Thread-safe. Owns the lexical index and its executors; does not own the store or the model.
 */
public final class KnowledgeBase implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(KnowledgeBase.class.getName());

    private final Store store;
    private final DocumentRepository documents;
    private final EmbeddingModel model;
    private final LexicalIndex lexical;
    private final DenseIndex dense;
    private final GraphRanker graph;
    private final KnowledgeIngest ingest;
    private final RetrievalConfig config;
    private final DocumentCatalog catalog;
    private final TraceLog traces;
    private final KnowledgeIndexes indexes;
    private final ExecutorService signals =
            Executors.newThreadPerTaskExecutor(
                    Thread.ofVirtual().name("cairn-signal-", 0).factory());
    private final HybridSearch search = HybridSearch.on(signals);
    private final Map<Signal, Duration> deadlines;
    private final FeedbackLog feedback;
    private final AdaptationStore adaptations;
    private final Tuner tuner;
    private final ActiveAdaptations active;
    private final EntityRepository relations;

    private KnowledgeBase(
            Store store,
            EmbeddingModel model,
            LexicalIndex lexical,
            GraphRanker graph,
            RetrievalConfig config) {
        this.store = store;
        this.documents = DocumentRepository.over(store);
        this.model = model;
        this.lexical = lexical;
        this.graph = graph;
        this.config = config;
        this.dense =
                store.kind() == Store.Kind.POSTGRES
                        ? DenseIndex.pgvector(store, documents, config.dense())
                        : DenseIndex.inMemory(
                                documents, config.dense(), store.config().exactSearchThreshold());
        this.catalog = new DocumentCatalog(documents);
        this.traces = new TraceLog(store.sql(), config.traceRetention());
        this.relations = new EntityRepository(store.sql());
        this.ingest = new KnowledgeIngest(store, documents, model, config, relations);
        this.indexes = new KnowledgeIndexes(documents, lexical, dense, catalog);
        this.deadlines =
                Map.of(
                        Signal.LEXICAL, config.lexicalTimeout(),
                        Signal.DENSE, config.denseTimeout(),
                        Signal.GRAPH, config.graphTimeout());
        this.feedback = new FeedbackLog(store.sql());
        this.adaptations = AdaptationStore.documents(store.sql());
        this.active = new ActiveAdaptations(adaptations);
        this.tuner = new Tuner(model, feedback, adaptations, new DocumentSubject());
    }

    /** What retrieve's adaptation ranks: documents, judged as documents or chunks. */
    private final class DocumentSubject implements Tuner.Subject {

        @Override
        public Optional<String> key(Judgment.Target target) {
            return target.documentId();
        }

        @Override
        public Map<String, float[]> unitsOf(String namespace, String documentId) {
            return embedded(documents.chunks(namespace, documentId));
        }

        @Override
        public Map<String, float[]> vectors(String namespace, Collection<String> chunkIds) {
            return embedded(documents.chunks(namespace, chunkIds));
        }

        private static Map<String, float[]> embedded(List<StoredChunk> chunks) {
            Map<String, float[]> out = new HashMap<>();
            for (StoredChunk chunk : chunks) {
                if (chunk.embedding().length > 0) {
                    out.put(chunk.id(), chunk.embedding());
                }
            }
            return out;
        }

        @Override
        public String keyOf(String chunkId) {
            return StoredChunk.documentIdOf(chunkId);
        }

        @Override
        public List<String> candidates(String namespace, String query, float[] vector) {
            List<String> ids = new ArrayList<>();
            denseRanking(namespace, vector, Tuner.DENSE_NEGATIVES)
                    .entries()
                    .forEach(e -> ids.add(e.id()));
            lexical.search(namespace, query, Tuner.LEXICAL_NEGATIVES, false)
                    .forEach(h -> ids.add(h.chunkId()));
            return ids;
        }

        @Override
        public List<FusedCandidate> fused(
                String namespace, String query, float[] vector, int depth) {
            return fusedCandidates(namespace, query, vector, 1, depth);
        }

        @Override
        public List<String> rank(
                String namespace,
                String query,
                float[] vector,
                double denseWeight,
                JudgedPrior prior,
                LearnedFusion fusion,
                int depth) {
            return rankDocuments(namespace, query, vector, denseWeight, prior, fusion, depth);
        }

        @Override
        public String judgedNoun() {
            return "document or chunk";
        }
    }

    /**
     * Opens the knowledge base over {@code store}, with its Lucene index in {@code indexDir}, and
     * registers its indexes with the store's {@link dev.cairn.store.ChangeLog}, which catches them
     * up with every change they have not applied (a deleted index directory is rebuilt from the
     * store) and keeps them current.
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
            store.changeLog().follow(kb.indexes);
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

    /**
     * Returns once every retrieve trace saved before the call is in the store (they are written
     * behind the answers): forgetting a user must see the traces of their last queries.
     */
    public void flushTraces() {
        traces.flush();
    }

    public Store store() {
        return store;
    }

    /** The documents and chunks this knowledge base keeps in its store. */
    public DocumentRepository documents() {
        return documents;
    }

    public EmbeddingModel model() {
        return model;
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
        return ingest.ingest(namespace, document, IngestMode.REPLACE);
    }

    /**
     * Ingests one document as {@link #ingest(String, ParsedDocument)} does, or, in {@link
     * IngestMode#SKIP_UNCHANGED}, answers its stored version without embedding anything when it is
     * stored already under the same ingest key ({@link IngestResult#unchanged()}).
     *
     * @throws NoSuchElementException when the namespace does not exist
     * @throws IllegalArgumentException as {@link #check} does
     */
    public IngestResult ingest(String namespace, ParsedDocument document, IngestMode mode) {
        return ingest.ingest(namespace, document, mode);
    }

    /**
     * Checks a document as an ingest does before embedding anything, so a bulk caller can leave out
     * the one document an ingest would refuse instead of failing its whole batch.
     *
     * @throws IllegalArgumentException naming the document and the problem: over {@link
     *     RetrievalConfig#maxDocumentBytes()} ({@link PayloadTooLargeException}), no content, an
     *     entity of an unknown kind
     */
    public void check(ParsedDocument document) {
        ingest.check(document);
    }

    /**
     * Ingests documents in batches through overlapping parse/chunk, embed and write stages (one
     * store transaction per batch); {@code progress} hears of each document, in input order, once
     * it is stored or, in {@link IngestMode#SKIP_UNCHANGED}, found unchanged. A failure stops the
     * ingest with the batches before it stored and nothing of the failing one.
     *
     * @throws NoSuchElementException when the namespace does not exist
     * @throws IllegalArgumentException when a document is over the size limit or empty
     */
    public void ingestAll(
            String namespace,
            Iterable<ParsedDocument> documents,
            IngestMode mode,
            Consumer<IngestResult> progress) {
        ingest.ingestAll(namespace, documents, mode, progress);
    }

    /**
     * Hands every document of the namespace to {@code consumer} as it would be exported: fields,
     * text, ingest key, front matter and chunks with vectors.
     *
     * @throws NoSuchElementException when the namespace does not exist
     */
    public void forEachCopy(String namespace, java.util.function.Consumer<DocumentCopy> consumer) {
        ingest.forEachCopy(namespace, consumer);
    }

    /**
     * Writes exported documents into the namespace (a new version of each, unless stored already
     * under the same ingest key), keeping chunk vectors of this model and embedding the others.
     *
     * @throws NoSuchElementException when the namespace does not exist
     */
    public DocumentCopy.Restored restore(String namespace, List<DocumentCopy> copies) {
        return ingest.restore(namespace, copies);
    }

    /** Every relation of the namespace created through {@code POST relations}, in id order. */
    public List<RelationCopy> relationCopies(String namespace) {
        return relations.apiRelationCopies(namespace);
    }

    /**
     * Stores exported {@code POST relations} relations under their ids (the graph picks them up
     * from the change log); ids stored already are left alone.
     *
     * @return how many were stored
     */
    public int restoreRelations(String namespace, List<RelationCopy> copies) {
        return copies.isEmpty() ? 0 : relations.restoreApiRelations(namespace, copies);
    }

    /**
     * Stores exported adaptations as they were ({@link AdaptationStore#restore}); the next retrieve
     * on this server applies the active one.
     */
    public void restoreAdaptations(String namespace, List<Adaptation> versions) {
        adaptations.restore(namespace, versions);
        active.forget(namespace);
    }

    /** Deletes a document from the store and every index; false when there was none. */
    public boolean delete(String namespace, String documentId) {
        return ingest.delete(namespace, documentId);
    }

    // ---- derived indexes ---------------------------------------------------------------

    /**
     * Applies every committed store change the derived indexes have not seen yet (the store's one
     * catch-up loop, run now).
     */
    public void catchUp() {
        store.changeLog().catchUp();
    }

    // ---- retrieval ---------------------------------------------------------------------

    /**
     * Answers a retrieve call and persists its trace.
     *
     * @throws NoSuchElementException when the namespace does not exist
     */
    public RetrieveResult retrieve(String namespace, RetrieveRequest request) {
        long start = System.nanoTime();
        ingest.requireNamespace(namespace);
        store.changeLog().catchUpIfBehind(); // another server may have written since
        Map<String, String> explanations = new HashMap<>();
        CompletableFuture<GraphRanker.Ranking> graphRanking = new CompletableFuture<>();
        int n = request.candidates();
        Map<Signal, SignalTask> tasks = new EnumMap<>(Signal.class);
        if (request.weights().weight(Signal.LEXICAL) > 0) {
            tasks.put(Signal.LEXICAL, () -> lexicalSignal(namespace, request, n, explanations));
        }
        ActiveAdaptations.Active adapter = active.of(namespace);
        boolean adapted = false;
        SignalWeights weights = request.weights();
        if (request.weights().weight(Signal.DENSE) > 0) {
            adapted = adapter.version() > 0;
            weights = adapter.apply(weights);
            tasks.put(
                    Signal.DENSE,
                    () -> {
                        float[] vector = model.embedQuery(request.query());
                        return denseRanking(
                                namespace,
                                adapter.version() > 0 ? adapter.adapter().apply(vector) : vector,
                                n);
                    });
        }
        if (request.weights().weight(Signal.GRAPH) > 0 && graph != GraphRanker.NONE) {
            tasks.put(
                    Signal.GRAPH,
                    () -> {
                        GraphRanker.Ranking ranking = graph.rank(namespace, request.query(), n);
                        graphRanking.complete(ranking);
                        return Ranking.of(ranking.chunks());
                    });
        }
        SignalRun run = search.run(tasks, weights, deadlines, start);
        run.failures()
                .forEach(
                        (signal, cause) ->
                                LOG.log(
                                        Level.WARNING,
                                        signal + " signal failed in namespace " + namespace,
                                        cause));
        List<SignalOutcome> outcomes = run.outcomes();

        long fusionStart = System.nanoTime();
        JudgedPrior prior = adapted ? adapter.prior() : JudgedPrior.NONE;
        List<FusedCandidate> defaultFused = run.fuse(request.fusion().fusion(request.k()), weights);
        // the learned fusion replaces the default fusion of both signals, as it was trained: a
        // request for rrf or convex, one weighting a single signal, or one a signal did not answer
        // in time gets the fusion it would get without it
        boolean learned =
                adapted
                        && request.fusion() == FusionStrategy.DEFAULT
                        && request.weights().weight(Signal.LEXICAL) > 0
                        && run.answered().containsKey(Signal.LEXICAL)
                        && run.answered().containsKey(Signal.DENSE)
                        && adapter.fusion().ranks(defaultFused);
        List<FusedCandidate> fused =
                Supersession.apply(
                        graph,
                        namespace,
                        prior.apply(
                                learned ? adapter.fusion().apply(defaultFused) : defaultFused,
                                request.k(),
                                StoredChunk::documentIdOf,
                                explanations),
                        explanations);
        // The graph's context and paths count only when its signal answered in time.
        GraphRanker.Ranking graphAnswer =
                run.answered().containsKey(Signal.GRAPH)
                        ? graphRanking.getNow(
                                new GraphRanker.Ranking(List.of(), GraphContext.EMPTY))
                        : new GraphRanker.Ranking(List.of(), GraphContext.EMPTY);
        List<TraceCandidate> candidates = new ArrayList<>();
        List<FusedCandidate> selected = new ArrayList<>();
        for (FusedCandidate candidate : fused) {
            String documentId = StoredChunk.documentIdOf(candidate.id());
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
                            explanations.getOrDefault(candidate.id(), ""),
                            graphAnswer.paths().getOrDefault(candidate.id(), List.of())));
        }
        List<RetrievedHit> hits = hydrate(namespace, selected);
        double fusionMs = (System.nanoTime() - fusionStart) / 1e6;

        double grounding = Grounding.score(request.query(), hits);
        Plan plan = config.grounding().plan(grounding);
        Timings timings =
                new Timings(
                        run.outcome(Signal.LEXICAL).millis(),
                        run.outcome(Signal.DENSE).millis(),
                        run.outcome(Signal.GRAPH).millis(),
                        fusionMs,
                        elapsedMs(start));
        GraphContext context = graphAnswer.context();
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
                        outcomes,
                        adapted ? adapter.applied(learned) : AppliedAdaptation.NONE);
        traces.save(namespace, StoredTrace.of(namespace, request, result));
        return result;
    }

    private Ranking denseRanking(String namespace, float[] vector, int n) {
        List<ScoredId> ranking = new ArrayList<>();
        for (DenseHit h : dense.search(namespace, vector, n)) {
            ranking.add(new ScoredId(h.chunkId(), h.similarity()));
        }
        return Ranking.of(ranking);
    }

    /**
     * Document ids, best first, of the hybrid ranking (lexical weight 1, dense {@code denseWeight},
     * the default fusion with the default k, or {@code fusion} where it {@link
     * LearnedFusion#ranks}, then {@code prior}, as a retrieve without a fusion ranks) of {@code
     * query} with the dense signal searched at {@code vector}: what a tuning run compares. A
     * document ranks at its best chunk.
     */
    List<String> rankDocuments(
            String namespace,
            String query,
            float[] vector,
            double denseWeight,
            JudgedPrior prior,
            LearnedFusion fusion,
            int depth) {
        java.util.Set<String> documents = new java.util.LinkedHashSet<>();
        for (FusedCandidate c :
                prior.apply(
                        fusion.apply(fusedCandidates(namespace, query, vector, denseWeight, depth)),
                        Fusion.DEFAULT_K,
                        StoredChunk::documentIdOf,
                        new HashMap<>())) {
            documents.add(StoredChunk.documentIdOf(c.id()));
        }
        return List.copyOf(documents);
    }

    /**
     * The chunks of the hybrid ranking of {@code query} under the default fusion (lexical weight 1,
     * dense {@code denseWeight}, the default k), best first, with the dense signal searched at
     * {@code vector}: what a tuning run ranks and what a learned fusion learns from.
     */
    private List<FusedCandidate> fusedCandidates(
            String namespace, String query, float[] vector, double denseWeight, int depth) {
        SignalWeights weights = SignalWeights.of(1, denseWeight, 0);
        Map<Signal, SignalTask> tasks = new EnumMap<>(Signal.class);
        tasks.put(
                Signal.LEXICAL,
                () -> Ranking.lexical(lexical.search(namespace, query, depth, false)));
        tasks.put(Signal.DENSE, () -> denseRanking(namespace, vector, depth));
        SignalRun run = search.run(tasks, weights);
        run.failures()
                .forEach(
                        (signal, cause) -> {
                            throw new IllegalStateException(
                                    signal + " signal failed while tuning: " + cause, cause);
                        });
        return run.fuse(FusionStrategy.DEFAULT.fusion(Fusion.DEFAULT_K), weights);
    }

    // ---- feedback and adaptation ----------------------------------------------------------

    /** The namespaces' relevance judgments. */
    public FeedbackLog feedback() {
        return feedback;
    }

    /** The namespaces' trained adaptations (read them; change them through {@link #tune}). */
    public AdaptationStore adaptations() {
        return adaptations;
    }

    /**
     * Trains a query adapter from the namespace's judgments, compares it with the current ranking
     * on the held-back judgments and activates it only if it wins there (see {@link Tuner}).
     *
     * @return the new version, {@link Adaptation.State#ACTIVE} or {@link
     *     Adaptation.State#REJECTED}, with its report
     * @throws NoSuchElementException when the namespace does not exist
     * @throws IllegalStateException when there are too few judged queries
     */
    public Adaptation tune(String namespace, TuneOptions options) {
        ingest.requireNamespace(namespace);
        store.changeLog().catchUpIfBehind();
        try {
            return tuner.tune(namespace, options);
        } finally {
            active.forget(namespace);
        }
    }

    /**
     * Rolls the namespace's active adaptation back to the one it replaced (or to none).
     *
     * @return the adaptation active now, empty when none
     * @throws NoSuchElementException when the namespace has no active adaptation
     */
    public Optional<Adaptation> rollback(String namespace) {
        ingest.requireNamespace(namespace);
        try {
            return adaptations.rollback(namespace);
        } finally {
            active.forget(namespace);
        }
    }

    private Ranking lexicalSignal(
            String namespace, RetrieveRequest request, int n, Map<String, String> explanations) {
        List<LexicalHit> hits = lexical.search(namespace, request.query(), n, request.explain());
        for (LexicalHit hit : hits) {
            hit.explanation()
                    .ifPresent(
                            text -> {
                                synchronized (explanations) {
                                    explanations.put(hit.chunkId(), text);
                                }
                            });
        }
        return Ranking.lexical(hits);
    }

    private List<RetrievedHit> hydrate(String namespace, List<FusedCandidate> selected) {
        if (selected.isEmpty()) {
            return List.of();
        }
        Map<String, StoredChunk> chunks = new HashMap<>();
        for (StoredChunk chunk :
                documents.chunks(namespace, selected.stream().map(FusedCandidate::id).toList())) {
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

    /** The stored trace of an earlier retrieve call. */
    public Optional<StoredTrace> trace(String namespace, String traceId) {
        return traces.find(namespace, traceId);
    }

    private static double elapsedMs(long start) {
        return (System.nanoTime() - start) / 1e6;
    }

    /** Commits the lexical index, writes the queued traces and stops the executors. */
    @Override
    public void close() {
        signals.shutdown(); // no interrupts: an interrupt closes Lucene's file channels
        try {
            store.changeLog().unfollow(indexes); // commits what it applied
        } finally {
            traces.close();
            lexical.close();
        }
    }
}
