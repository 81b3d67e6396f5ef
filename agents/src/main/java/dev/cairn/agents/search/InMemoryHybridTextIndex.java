package dev.cairn.agents.search;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.retrieval.RetrievalConfig;
import dev.cairn.retrieval.RetrieveRequest;
import dev.cairn.retrieval.dense.UnitVectors;
import dev.cairn.retrieval.fusion.FusedCandidate;
import dev.cairn.retrieval.fusion.Fusion;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import dev.cairn.retrieval.lexical.IndexedChunk;
import dev.cairn.retrieval.lexical.LexicalConfig;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.retrieval.search.HybridSearch;
import dev.cairn.retrieval.search.Ranking;
import dev.cairn.retrieval.search.SignalRun;
import dev.cairn.retrieval.search.SignalTask;
import dev.cairn.safety.SafeText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * {@link HybridTextIndex} with one shared in-memory Lucene index (a namespace per Lucene namespace)
 * and the one exact cosine scan ({@link UnitVectors#scan()}) over a per-namespace map of vectors,
 * both run and fused by the hybrid search core ({@link HybridSearch}). Candidates per signal:
 * {@code max(limit * 4, 50)}.
 *
 * <p>Entries are searchable by their words as soon as they are written; their vectors are computed
 * in the background, one worker per namespace taking turns with every other embedding caller (see
 * the embeddings module's scheduler), so a namespace that loads 1,500 messages neither stalls its
 * own first search nor anyone else's queries. A search ranks by words at once and waits for its
 * namespace's outstanding vectors meanwhile, until {@link #EMBEDDING_WAIT} after it started
 * (loading the namespace included); if some are still missing then, it ranks the namespace by words
 * alone (a dense ranking over part of it would favour the embedded part).
 *
 * <p>Thread-safe: each namespace's load and updates hold that namespace's lock; searches after
 * loading run concurrently.
 */
final class InMemoryHybridTextIndex implements HybridTextIndex {

    /** Candidates each signal contributes at least. */
    static final int MIN_CANDIDATES = 50;

    /**
     * The dense signal's deadline, from the start of the search (as in retrieve and recall): it
     * waits this long at most for its namespace's outstanding vectors and the query's. Measured
     * from after loading, the first search of a namespace with 1,500 messages took 3.4 to 4.5 s
     * (load 0.8 s, the wait, then BM25 1.3 s on cores busy embedding; issue 40).
     */
    static final Duration EMBEDDING_WAIT = RetrievalConfig.DEFAULT_SIGNAL_TIMEOUT;

    /** Entries one background embedding call takes: two encoder slices. */
    static final int EMBEDDING_BATCH = 64;

    private static final System.Logger LOG =
            System.getLogger(InMemoryHybridTextIndex.class.getName());

    private static final SignalWeights WEIGHTS = SignalWeights.of(1.0, 1.0, 0.0);

    private final EmbeddingModel model; // null: lexical only
    private final LexicalIndex lexical = LexicalIndex.inMemory(LexicalConfig.DEFAULTS);
    private final Fusion fusion = Fusion.weightedRrf();
    private final Map<String, NamespaceState> namespaces = new ConcurrentHashMap<>();
    private final ExecutorService signals =
            Executors.newThreadPerTaskExecutor(
                    Thread.ofVirtual().name("cairn-text-search-", 0).factory());
    private final HybridSearch search = HybridSearch.on(signals);
    private final ExecutorService embedders =
            Executors.newThreadPerTaskExecutor(
                    Thread.ofVirtual().name("cairn-text-embedding-", 0).factory());

    InMemoryHybridTextIndex(EmbeddingModel model) {
        this.model = model;
    }

    /**
     * Per-namespace state; everything but {@code vectors} (read by searches without the lock) is
     * guarded by the instance lock, which is also what waiters for outstanding vectors wait on.
     */
    private static final class NamespaceState {
        final String namespace;
        boolean loaded;
        boolean forgotten;
        final Map<String, float[]> vectors = new ConcurrentHashMap<>();

        /** Entries written but not embedded yet, in write order: id to the text to embed. */
        final Map<String, String> unembedded = new LinkedHashMap<>();

        /** Whether a background worker is embedding this namespace's entries. */
        boolean embedding;

        NamespaceState(String namespace) {
            this.namespace = namespace;
        }
    }

    @Override
    public boolean hybrid() {
        return model != null;
    }

    @Override
    public List<TextHit> search(
            String namespace, String query, int limit, Supplier<Collection<TextEntry>> loader) {
        if (limit < 1) {
            throw new IllegalArgumentException("illegal limit: " + limit + ", must be >= 1");
        }
        if (query.length() > RetrieveRequest.MAX_QUERY_CHARS) {
            // the one query limit of every search (retrieve, recall, transcripts, key/value)
            throw new IllegalArgumentException(
                    "illegal query length: "
                            + query.length()
                            + ", must be <= "
                            + RetrieveRequest.MAX_QUERY_CHARS
                            + " characters");
        }
        long started = System.nanoTime();
        NamespaceState state = namespaces.computeIfAbsent(namespace, NamespaceState::new);
        synchronized (state) {
            if (!state.loaded) {
                write(namespace, state, loader.get());
                state.loaded = true;
            }
        }
        if (query.isBlank()) {
            return List.of();
        }
        String matchingQuery = SafeText.normalize(query);
        int candidates = Math.max(limit * 4, MIN_CANDIDATES);
        Map<Signal, SignalTask> tasks = new EnumMap<>(Signal.class);
        tasks.put(
                Signal.LEXICAL,
                () -> Ranking.lexical(lexical.search(namespace, matchingQuery, candidates, false)));
        long deadline = started + EMBEDDING_WAIT.toNanos();
        AtomicReference<float[]> embeddedQuery = new AtomicReference<>();
        if (model != null) {
            tasks.put(
                    Signal.DENSE,
                    () -> {
                        // a dense ranking over part of the namespace would push the embedded
                        // part above the rest: none at all then
                        if (!awaitVectors(state, deadline) || state.vectors.isEmpty()) {
                            return Ranking.of(List.of());
                        }
                        float[] vector = model.embedQuery(matchingQuery);
                        embeddedQuery.set(vector);
                        return dense(state, vector, candidates);
                    });
        }
        SignalRun run = search.run(tasks, WEIGHTS, Map.of(Signal.DENSE, EMBEDDING_WAIT), started);
        // a query vector that came after the deadline ranks nothing, so it scores nothing either
        float[] queryVector = run.answered().containsKey(Signal.DENSE) ? embeddedQuery.get() : null;
        run.failures()
                .values()
                .forEach(
                        cause -> {
                            if (cause instanceof RuntimeException r) {
                                throw r;
                            }
                            throw new IllegalStateException("text search failed", cause);
                        });
        List<FusedCandidate> fused = run.fuse(fusion, WEIGHTS);
        List<TextHit> out = new ArrayList<>();
        for (FusedCandidate c : fused.subList(0, Math.min(limit, fused.size()))) {
            out.add(
                    new TextHit(
                            c.id(),
                            c.score(),
                            c.rank(Signal.LEXICAL).orElse(0),
                            c.rank(Signal.DENSE).orElse(0),
                            TextHit.relevance(
                                    c.score(Signal.LEXICAL).orElse(0),
                                    cosine(state, queryVector, c))));
        }
        return List.copyOf(out);
    }

    /** The candidate's cosine to the query, NaN when there is no dense signal or vector. */
    private static double cosine(NamespaceState state, float[] query, FusedCandidate c) {
        if (c.score(Signal.DENSE).isPresent()) {
            return c.score(Signal.DENSE).getAsDouble();
        }
        float[] v = query == null ? null : state.vectors.get(c.id());
        return v == null || v.length != query.length
                ? Double.NaN
                : UnitVectors.COSINE.score(query, v);
    }

    private static Ranking dense(NamespaceState state, float[] query, int k) {
        return Ranking.dense(
                UnitVectors.scan()
                        .nearest(
                                state.vectors.entrySet(),
                                Map.Entry::getKey,
                                Map.Entry::getValue,
                                query,
                                k),
                query,
                UnitVectors.COSINE,
                state.vectors::get);
    }

    @Override
    public void upsert(String namespace, Collection<TextEntry> entries) {
        NamespaceState state = namespaces.get(namespace);
        if (state == null) {
            return;
        }
        synchronized (state) {
            if (state.loaded) {
                write(namespace, state, entries);
            }
        }
    }

    /**
     * Indexes the words now and queues the texts for the background worker; holds the lock. Both
     * read the {@link SafeText#normalize matching copy} of each text (the stored text is as sent).
     */
    private void write(String namespace, NamespaceState state, Collection<TextEntry> entries) {
        List<TextEntry> list =
                entries.stream()
                        .map(e -> new TextEntry(e.id(), SafeText.normalize(e.text())))
                        .toList();
        for (TextEntry e : list) {
            lexical.upsertDocument(
                    namespace, e.id(), List.of(new IndexedChunk(e.id(), "", List.of(), e.text())));
        }
        if (model == null || list.isEmpty()) {
            return;
        }
        for (TextEntry e : list) {
            state.vectors.remove(e.id()); // an edited entry must not be found by its old text
            state.unembedded.remove(e.id()); // re-queued at the end, in write order
            state.unembedded.put(e.id(), e.text());
        }
        if (!state.embedding) {
            state.embedding = true;
            embedders.execute(() -> embedInBackground(state));
        }
    }

    /**
     * Embeds the namespace's outstanding entries, {@link #EMBEDDING_BATCH} at a time, until none is
     * left; an entry edited or removed while its batch ran is not stored with the old vector.
     */
    private void embedInBackground(NamespaceState state) {
        while (true) {
            List<Map.Entry<String, String>> batch;
            synchronized (state) {
                if (state.unembedded.isEmpty() || state.forgotten) {
                    state.embedding = false;
                    state.notifyAll();
                    return;
                }
                batch = new ArrayList<>(EMBEDDING_BATCH);
                for (Map.Entry<String, String> e : state.unembedded.entrySet()) {
                    batch.add(Map.entry(e.getKey(), e.getValue()));
                    if (batch.size() == EMBEDDING_BATCH) {
                        break;
                    }
                }
            }
            List<float[]> vectors;
            try {
                vectors = model.embedDocuments(batch.stream().map(Map.Entry::getValue).toList());
            } catch (RuntimeException e) {
                if (!state.forgotten) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "embedding "
                                    + batch.size()
                                    + " entries of namespace "
                                    + state.namespace
                                    + " failed, searching them by their words until the next write: "
                                    + e.getMessage());
                }
                synchronized (state) {
                    state.embedding = false;
                    state.notifyAll();
                }
                return;
            }
            synchronized (state) {
                for (int i = 0; i < batch.size(); i++) {
                    String id = batch.get(i).getKey();
                    // still outstanding with this text: not removed, not edited meanwhile
                    if (batch.get(i).getValue().equals(state.unembedded.get(id))) {
                        state.unembedded.remove(id);
                        state.vectors.put(id, vectors.get(i));
                    }
                }
                state.notifyAll();
            }
        }
    }

    /** Entries of {@code namespace} written but not embedded yet; for tests and status. */
    int outstandingVectors(String namespace) {
        NamespaceState state = namespaces.get(namespace);
        if (state == null) {
            return 0;
        }
        synchronized (state) {
            return state.unembedded.size();
        }
    }

    /**
     * Waits until {@code deadline} ({@link System#nanoTime()}) at most for the namespace's
     * outstanding vectors; whether every entry has its vector.
     */
    private static boolean awaitVectors(NamespaceState state, long deadline) {
        synchronized (state) {
            while (state.embedding && !state.unembedded.isEmpty()) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    break;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(state, remaining);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return state.unembedded.isEmpty();
        }
    }

    @Override
    public void remove(String namespace, Collection<String> ids) {
        NamespaceState state = namespaces.get(namespace);
        if (state == null) {
            return;
        }
        Set<String> copy = new HashSet<>(ids);
        synchronized (state) {
            for (String id : copy) {
                lexical.deleteDocument(namespace, id);
                state.vectors.remove(id);
                state.unembedded.remove(id);
            }
        }
    }

    @Override
    public void invalidate(String namespace) {
        NamespaceState state = namespaces.remove(namespace);
        if (state != null) {
            synchronized (state) {
                state.forgotten = true;
                state.unembedded.clear();
                lexical.deleteNamespace(namespace);
            }
        }
    }

    @Override
    public void invalidateAll() {
        for (String namespace : List.copyOf(namespaces.keySet())) {
            invalidate(namespace);
        }
    }

    @Override
    public void close() {
        signals.shutdown(); // no interrupts: an interrupt closes Lucene's file channels
        namespaces
                .values()
                .forEach(
                        state -> {
                            synchronized (state) {
                                state.forgotten = true;
                            }
                        });
        embedders.shutdown();
        try {
            // a worker's embedding call in flight ends within a pass or two; the model may be
            // closed right after this index
            if (!embedders.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "background embedding still running at close");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        lexical.close();
    }
}
