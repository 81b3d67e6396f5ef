package dev.cairn.agents.search;

import dev.cairn.embeddings.EmbeddingModel;
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
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * {@link HybridTextIndex} with one shared in-memory Lucene index (a namespace per Lucene namespace)
 * and the one exact cosine scan ({@link UnitVectors#scan()}) over a per-namespace map of vectors,
 * both run and fused by the hybrid search core ({@link HybridSearch}). Candidates per signal:
 * {@code max(limit * 4, 50)}. Thread-safe: each namespace's load and updates hold that namespace's
 * lock; searches after loading run concurrently.
 */
final class InMemoryHybridTextIndex implements HybridTextIndex {

    /** Candidates each signal contributes at least. */
    static final int MIN_CANDIDATES = 50;

    private static final SignalWeights WEIGHTS = SignalWeights.of(1.0, 1.0, 0.0);

    private final EmbeddingModel model; // null: lexical only
    private final LexicalIndex lexical = LexicalIndex.inMemory(LexicalConfig.DEFAULTS);
    private final Fusion fusion = Fusion.weightedRrf();
    private final Map<String, NamespaceState> namespaces = new ConcurrentHashMap<>();
    private final ExecutorService signals =
            Executors.newThreadPerTaskExecutor(
                    Thread.ofVirtual().name("cairn-text-search-", 0).factory());
    private final HybridSearch search = HybridSearch.on(signals);

    InMemoryHybridTextIndex(EmbeddingModel model) {
        this.model = model;
    }

    /** Per-namespace state; {@code loaded} and the vectors are guarded by the instance lock. */
    private static final class NamespaceState {
        boolean loaded;
        final Map<String, float[]> vectors = new ConcurrentHashMap<>();
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
        NamespaceState state = namespaces.computeIfAbsent(namespace, n -> new NamespaceState());
        synchronized (state) {
            if (!state.loaded) {
                write(namespace, state, loader.get());
                state.loaded = true;
            }
        }
        if (query.isBlank()) {
            return List.of();
        }
        int candidates = Math.max(limit * 4, MIN_CANDIDATES);
        Map<Signal, SignalTask> tasks = new EnumMap<>(Signal.class);
        tasks.put(
                Signal.LEXICAL,
                () -> Ranking.lexical(lexical.search(namespace, query, candidates, false)));
        float[] queryVector =
                model != null && !state.vectors.isEmpty() ? model.embedQuery(query) : null;
        if (queryVector != null) {
            tasks.put(Signal.DENSE, () -> dense(state, queryVector, candidates));
        }
        SignalRun run = search.run(tasks, WEIGHTS);
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

    private void write(String namespace, NamespaceState state, Collection<TextEntry> entries) {
        List<TextEntry> list = List.copyOf(entries);
        for (TextEntry e : list) {
            lexical.upsertDocument(
                    namespace, e.id(), List.of(new IndexedChunk(e.id(), "", List.of(), e.text())));
        }
        if (model != null && !list.isEmpty()) {
            List<float[]> vectors =
                    model.embedDocuments(list.stream().map(TextEntry::text).toList());
            for (int i = 0; i < list.size(); i++) {
                state.vectors.put(list.get(i).id(), vectors.get(i));
            }
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
            }
        }
    }

    @Override
    public void invalidate(String namespace) {
        NamespaceState state = namespaces.remove(namespace);
        if (state != null) {
            synchronized (state) {
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
        lexical.close();
    }
}
