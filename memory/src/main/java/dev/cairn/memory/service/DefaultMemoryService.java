package dev.cairn.memory.service;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.TokenCounter;
import dev.cairn.memory.AssembledContext;
import dev.cairn.memory.ContextAssembler;
import dev.cairn.memory.DedupDecision;
import dev.cairn.memory.Memory;
import dev.cairn.memory.MemoryLifecycle;
import dev.cairn.memory.MemoryStatus;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.Neighbour;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.RecallScorer;
import dev.cairn.memory.ScoredMemory;
import dev.cairn.memory.StatusTransition;
import dev.cairn.memory.TextNormalizer;
import dev.cairn.memory.Transitioned;
import dev.cairn.memory.store.MemoryFilter;
import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.memory.store.MemoryRow;
import dev.cairn.retrieval.lexical.LexicalHit;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.safety.SafetyRule;
import dev.cairn.safety.WriteBlockedException;
import dev.cairn.safety.WriteGuard;
import dev.cairn.safety.WriteTarget;
import dev.cairn.store.Namespace;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.stream.Collector;
import org.apache.lucene.util.VectorUtil;

/** Default {@link MemoryService}. Thread-safe; writes in one namespace hold its lock. */
final class DefaultMemoryService implements MemoryService {

    private static final System.Logger LOG = System.getLogger(DefaultMemoryService.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int MAINTENANCE_BATCH = 500;
    private static final int MAX_CLUSTER_GROUP = 2000;

    /**
     * Token counts context assembly keeps (entry contents and prefixes, a few per memory): enough
     * for the memories recalled most often, a few MB at most.
     */
    private static final int TOKEN_COUNTS_CACHED = 50_000;

    private final Store store;
    private final MemoryRepository repository;
    private final EmbeddingModel model;
    private final WriteGuard guard;
    private final MemoryServiceConfig config;
    private final Clock clock;
    private final MemoryLifecycle lifecycle;
    private final RecallScorer scorer;
    private final ContextAssembler assembler;
    private final MemoryIndexes indexes;
    private final MemoryStats stats = new MemoryStats();
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

    /**
     * Memories from which recall's exact dense scan is split across the common pool's workers:
     * below this a split costs more than it saves.
     */
    static final int PARALLEL_SCAN_MIN_ENTRIES = 2_000;

    private final ExecutorService searchers =
            Executors.newThreadPerTaskExecutor(
                    Thread.ofVirtual().name("cairn-memory-recall-", 0).factory());
    private final ExecutorService recorder =
            Executors.newSingleThreadExecutor(
                    Thread.ofPlatform().name("cairn-memory-recall-recorder").daemon().factory());
    private final ScheduledExecutorService maintenance =
            Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().name("cairn-memory-maintenance").daemon().factory());

    DefaultMemoryService(
            Store store,
            EmbeddingModel model,
            LexicalIndex lexical,
            WriteGuard guard,
            MemoryServiceConfig config,
            Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.model = Objects.requireNonNull(model, "model");
        this.guard = Objects.requireNonNull(guard, "guard");
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.repository = MemoryRepository.over(store);
        this.lifecycle = MemoryLifecycle.create(config.lifecycle());
        this.scorer = RecallScorer.create(config.weights());
        this.assembler =
                ContextAssembler.create(
                        TokenCounter.caching(model.tokenCounter(), TOKEN_COUNTS_CACHED));
        this.indexes = new MemoryIndexes(repository, Objects.requireNonNull(lexical));
        store.changeLog().follow(indexes);
        if (!config.maintenanceInterval().isZero()) {
            long period = config.maintenanceInterval().toMillis();
            maintenance.scheduleWithFixedDelay(
                    this::scheduledMaintenance, period, period, TimeUnit.MILLISECONDS);
        }
    }

    // ---- writes ---------------------------------------------------------------------------

    @Override
    public WriteResult write(NewMemory draft, String actor) {
        return writeAll(List.of(draft), actor, null).getFirst();
    }

    @Override
    public List<WriteResult> writeAll(List<NewMemory> drafts, String actor, Instant at) {
        List<WriteGuard.Guarded> guards = new ArrayList<>();
        List<NewMemory> clean = new ArrayList<>();
        for (NewMemory draft : drafts) {
            WriteGuard.Guarded guarded = guard.apply(draft.content(), WriteTarget.MEMORY);
            if (guarded.blocked()) {
                stats.blocked.incrementAndGet();
                throw new WriteBlockedException(
                        guarded.safety()
                                .firstBlocking()
                                .map(h -> h.rule())
                                .orElse(SafetyRule.OVERSIZED));
            }
            guards.add(guarded);
            clean.add(withContent(draft, guarded.text()));
        }
        for (String ns : clean.stream().map(d -> d.scope().namespace()).distinct().toList()) {
            requireNamespace(ns);
        }
        List<float[]> vectors =
                clean.isEmpty()
                        ? List.of()
                        : model.embedDocuments(clean.stream().map(NewMemory::content).toList());
        List<WriteResult> results = new ArrayList<>();
        for (int i = 0; i < clean.size(); i++) {
            results.add(writeOne(clean.get(i), vectors.get(i), guards.get(i), at));
        }
        return results;
    }

    private WriteResult writeOne(
            NewMemory clean, float[] vector, WriteGuard.Guarded guarded, Instant at) {
        List<SafetyRule> flagged = guarded.storeDisabled() ? guarded.safety().rules() : List.of();
        String ns = clean.scope().namespace();
        ReentrantLock lock = lock(ns);
        lock.lock();
        try {
            Instant now = at == null ? clock.instant() : at;
            DedupDecision decision = lifecycle.decide(clean, neighbours(clean, vector));
            switch (decision) {
                case DedupDecision.Duplicate d -> {
                    return reinforce(
                            d.existing(),
                            clean,
                            now,
                            1.0,
                            WriteResult.Outcome.DUPLICATE,
                            guarded,
                            flagged);
                }
                case DedupDecision.Merge m -> {
                    return reinforce(
                            m.existing(),
                            clean,
                            now,
                            m.similarity(),
                            WriteResult.Outcome.MERGED,
                            guarded,
                            flagged);
                }
                case DedupDecision.Insert i -> {
                    Memory created = lifecycle.create(newId(), clean, model.id(), now);
                    if (!flagged.isEmpty()) {
                        created = created.withDisabled(true, now);
                    }
                    List<MemoryRow> rows = new ArrayList<>();
                    List<StatusTransition> transitions = new ArrayList<>();
                    rows.add(new MemoryRow(created, vector));
                    List<String> superseded = new ArrayList<>();
                    for (Memory older :
                            lifecycle.supersededBy(
                                    created,
                                    repository.withConflictKey(ns, created.conflictKey()))) {
                        Transitioned t = lifecycle.supersede(older, created, now);
                        rows.add(MemoryRow.keepEmbedding(t.memory()));
                        transitions.addAll(t.transitions());
                        superseded.add(older.id());
                    }
                    persist(ns, rows, transitions);
                    stats.created.incrementAndGet();
                    return new WriteResult(
                            created,
                            WriteResult.Outcome.CREATED,
                            0.0,
                            superseded,
                            guarded.redaction().counts(),
                            flagged);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private WriteResult reinforce(
            Memory existing,
            NewMemory incoming,
            Instant now,
            double similarity,
            WriteResult.Outcome outcome,
            WriteGuard.Guarded guarded,
            List<SafetyRule> flagged) {
        Transitioned t = lifecycle.reinforce(existing, incoming, now);
        persist(
                existing.scope().namespace(),
                List.of(MemoryRow.keepEmbedding(t.memory())),
                t.transitions());
        stats.deduplicated.incrementAndGet();
        return new WriteResult(
                t.memory(), outcome, similarity, List.of(), guarded.redaction().counts(), flagged);
    }

    /** Exact-hash matches and the nearest same-type same-scope memories by cosine. */
    private List<Neighbour> neighbours(NewMemory incoming, float[] vector) {
        String ns = incoming.scope().namespace();
        Map<String, Neighbour> out = new LinkedHashMap<>();
        Map<String, MemoryIndexes.Entry> table = indexes.table(ns);
        for (Memory m : repository.withContentHash(ns, incoming.contentHash())) {
            MemoryIndexes.Entry e = table.get(m.id());
            double cos =
                    e == null || e.vector().length == 0 ? 1.0 : clampCos(dot(vector, e.vector()));
            out.put(m.id(), new Neighbour(m, cos));
        }
        double min = config.lifecycle().mergeSimilarity();
        for (MemoryIndexes.Entry e : table.values()) {
            Memory m = e.memory();
            if (m.type() != incoming.type()
                    || !m.scope().equals(incoming.scope())
                    || e.vector().length != vector.length
                    || out.containsKey(m.id())) {
                continue;
            }
            double cos = dot(vector, e.vector());
            if (cos >= min) {
                out.put(m.id(), new Neighbour(m, clampCos(cos)));
            }
        }
        return List.copyOf(out.values());
    }

    @Override
    public WriteResult update(String namespace, String id, List<MemoryEdit> edits, String actor) {
        ReentrantLock lock = lock(namespace);
        lock.lock();
        try {
            Memory m = get(namespace, id);
            Instant now = max(clock.instant(), m.updatedAt());
            String content = m.content();
            MemoryType type = m.type();
            var layer = m.layer();
            List<String> tags = m.tags();
            double confidence = m.confidence();
            double importance = m.importance();
            String conflictKey = m.conflictKey();
            boolean disabled = m.disabled();
            Map<dev.cairn.safety.SecretKind, Integer> redactions = Map.of();
            List<SafetyRule> flagged = List.of();
            for (MemoryEdit edit : edits) {
                switch (edit) {
                    case MemoryEdit.Content c -> {
                        WriteGuard.Guarded g = guard.apply(c.text(), WriteTarget.MEMORY);
                        if (g.blocked()) {
                            stats.blocked.incrementAndGet();
                            throw new WriteBlockedException(
                                    g.safety()
                                            .firstBlocking()
                                            .map(h -> h.rule())
                                            .orElse(SafetyRule.OVERSIZED));
                        }
                        content = g.text();
                        redactions = g.redaction().counts();
                        if (g.storeDisabled()) {
                            flagged = g.safety().rules();
                            disabled = true;
                        }
                    }
                    case MemoryEdit.Tags t -> tags = t.tags();
                    case MemoryEdit.Confidence c -> confidence = c.value();
                    case MemoryEdit.Importance i -> importance = i.value();
                    case MemoryEdit.LayerEdit l -> layer = l.layer();
                    case MemoryEdit.TypeEdit t -> type = t.type();
                    case MemoryEdit.ConflictKey k -> conflictKey = k.key();
                }
            }
            boolean newContent = !content.equals(m.content());
            float[] vector =
                    newContent ? model.embedDocuments(List.of(content)).getFirst() : new float[0];
            Memory updated =
                    new Memory(
                            m.id(),
                            m.scope(),
                            type,
                            layer,
                            m.status(),
                            content,
                            TextNormalizer.contentHash(content),
                            tags,
                            confidence,
                            importance,
                            conflictKey,
                            m.source(),
                            m.createdAt(),
                            now,
                            m.expiresAt(),
                            m.lastRecalledAt(),
                            m.recalledCount(),
                            disabled,
                            m.deleted(),
                            newContent ? model.id() : m.embeddingModel());
            persist(namespace, List.of(new MemoryRow(updated, vector)), List.of());
            return new WriteResult(
                    updated, WriteResult.Outcome.UPDATED, 0.0, List.of(), redactions, flagged);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void delete(String namespace, String id, String actor) {
        mutate(
                namespace,
                id,
                (m, now) ->
                        new Transitioned(
                                m.withDeleted(true, now),
                                List.of(
                                        new StatusTransition(
                                                id,
                                                m.status(),
                                                m.status(),
                                                now,
                                                actor,
                                                "deleted"))));
    }

    @Override
    public Memory disable(String namespace, String id, String actor, String reason) {
        return setDisabled(namespace, id, actor, reason, true);
    }

    @Override
    public Memory enable(String namespace, String id, String actor, String reason) {
        return setDisabled(namespace, id, actor, reason, false);
    }

    /** Disabling keeps the status; the history records it as a transition to the same status. */
    private Memory setDisabled(
            String namespace, String id, String actor, String reason, boolean disabled) {
        return mutate(
                namespace,
                id,
                (m, now) ->
                        new Transitioned(
                                m.withDisabled(disabled, now),
                                List.of(
                                        new StatusTransition(
                                                id,
                                                m.status(),
                                                m.status(),
                                                now,
                                                actor,
                                                note(disabled ? "disabled" : "enabled", reason)))));
    }

    @Override
    public Memory invalidate(String namespace, String id, String actor, String reason) {
        return mutate(
                namespace,
                id,
                (m, now) ->
                        lifecycle.invalidate(
                                m,
                                now,
                                actor,
                                reason.isBlank() ? "invalidated on request" : reason));
    }

    private interface Step {
        Transitioned apply(Memory memory, Instant now);
    }

    private Memory mutate(String namespace, String id, Step step) {
        ReentrantLock lock = lock(namespace);
        lock.lock();
        try {
            Memory m = get(namespace, id);
            Transitioned t = step.apply(m, max(clock.instant(), m.updatedAt()));
            persist(namespace, List.of(MemoryRow.keepEmbedding(t.memory())), t.transitions());
            return t.memory();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes rows and transitions in one transaction, then catches the derived indexes up, so the
     * next read or dedup decision on this server sees the write.
     */
    private void persist(
            String namespace, List<MemoryRow> rows, List<StatusTransition> transitions) {
        repository.write(namespace, rows, transitions);
        store.changeLog().catchUp();
    }

    // ---- reads ----------------------------------------------------------------------------

    @Override
    public Memory get(String namespace, String id) {
        return repository
                .find(namespace, id)
                .filter(m -> !m.deleted())
                .orElseThrow(
                        () ->
                                new NoSuchElementException(
                                        "memory '"
                                                + id
                                                + "' does not exist in namespace '"
                                                + namespace
                                                + "'"));
    }

    @Override
    public List<StatusTransition> history(String namespace, String id) {
        get(namespace, id);
        return repository.transitions(namespace, id);
    }

    @Override
    public Page<Memory> list(String namespace, MemoryFilter filter, PageRequest page) {
        return repository.list(namespace, filter, page);
    }

    // ---- recall ---------------------------------------------------------------------------

    @Override
    public RecallResult recall(RecallRequest request) {
        long started = System.nanoTime();
        long deadline = started + request.timeout().toNanos();
        String ns = request.namespace();
        requireNamespace(ns);
        stats.recalls.incrementAndGet();
        Map<String, MemoryIndexes.Entry> table = indexes.table(ns);
        Predicate<Memory> eligible = eligibility(request);
        int fetch =
                request.userId().isEmpty()
                                && request.agentId().isEmpty()
                                && request.types().isEmpty()
                                && request.layers().isEmpty()
                        ? config.candidates()
                        : config.candidates() * 4;
        Future<List<LexicalHit>> lexicalF =
                request.mode() == RecallMode.DENSE
                        ? CompletableFuture.completedFuture(List.of())
                        : searchers.submit(
                                () -> indexes.lexical().search(ns, request.query(), fetch, false));
        Future<float[]> queryF =
                request.mode() == RecallMode.LEXICAL
                        ? CompletableFuture.completedFuture(new float[0])
                        : searchers.submit(() -> model.embedQuery(request.query()));
        boolean partial = false;
        List<LexicalHit> lexicalHits = await(lexicalF, deadline);
        if (lexicalHits == null) {
            partial = true;
            lexicalHits = List.of();
        }
        float[] query = await(queryF, deadline);
        if (query == null) {
            partial = true;
            query = new float[0];
        }
        // BM25 candidates within scope
        Map<String, Double> bm25 = new HashMap<>();
        for (LexicalHit hit : lexicalHits) {
            MemoryIndexes.Entry e = table.get(hit.documentId());
            if (e != null && eligible.test(e.memory()) && bm25.size() < config.candidates()) {
                bm25.put(hit.documentId(), hit.score());
            }
        }
        // dense candidates: exact scan, on both cores for large tables (the model is done)
        Map<String, Double> cosine = new HashMap<>();
        if (query.length > 0) {
            float[] q = query;
            var entries =
                    table.size() >= PARALLEL_SCAN_MIN_ENTRIES
                            ? table.values().parallelStream()
                            : table.values().stream();
            PriorityQueue<Map.Entry<String, Double>> top =
                    entries.filter(e -> e.vector().length == q.length && eligible.test(e.memory()))
                            .collect(nearest(q, config.candidates()));
            if (request.mode() != RecallMode.LEXICAL) {
                top.forEach(x -> cosine.put(x.getKey(), x.getValue()));
            }
            for (String id : bm25.keySet()) {
                MemoryIndexes.Entry e = table.get(id);
                if (!cosine.containsKey(id) && e.vector().length == query.length) {
                    cosine.put(id, dot(query, e.vector()));
                }
            }
        }
        double maxBm25 = bm25.values().stream().mapToDouble(Double::doubleValue).max().orElse(1.0);
        String normalizedQuery = TextNormalizer.normalize(request.query());
        Map<String, Double> relevance = new TreeMap<>();
        java.util.Set<String> ids = new java.util.TreeSet<>(bm25.keySet());
        if (request.mode() != RecallMode.LEXICAL) {
            ids.addAll(cosine.keySet());
        }
        for (String id : ids) {
            MemoryIndexes.Entry e = table.get(id);
            double lex = bm25.getOrDefault(id, 0.0) / (maxBm25 > 0 ? maxBm25 : 1.0);
            boolean hasCos = cosine.containsKey(id);
            double cos = hasCos ? cosine.get(id) : 0.0;
            if (query.length > 0 && request.mode() != RecallMode.LEXICAL) {
                boolean exact =
                        !normalizedQuery.isEmpty()
                                && e.normalizedContent().contains(normalizedQuery);
                if ((!hasCos || cos < request.threshold()) && !exact) {
                    continue;
                }
            }
            double rel =
                    switch (request.mode()) {
                        case LEXICAL -> lex;
                        case DENSE -> Math.max(0.0, cos);
                        case HYBRID ->
                                query.length == 0
                                        ? lex
                                        : (config.denseWeight() * Math.max(0.0, cos)
                                                        + config.lexicalWeight() * lex)
                                                / (config.denseWeight() + config.lexicalWeight());
                    };
            relevance.put(id, rel);
        }
        Instant now = clock.instant();
        List<ScoredMemory> ranked =
                relevance.entrySet().stream()
                        .map(x -> scorer.score(table.get(x.getKey()).memory(), x.getValue(), now))
                        .sorted(ScoredMemory.ORDER)
                        .limit(request.limit())
                        .toList();
        AssembledContext context = assembler.assemble(ranked, request.maxTokens());
        if (partial) {
            stats.partialRecalls.incrementAndGet();
        }
        if (config.recordRecalls() && !ranked.isEmpty()) {
            List<String> recalled = ranked.stream().map(ScoredMemory::id).toList();
            recorder.execute(() -> recordRecalls(ns, recalled, now));
        }
        return new RecallResult(
                ranked, context, partial, (System.nanoTime() - started) / 1_000_000);
    }

    /** Worst first: lower cosine, then the later id, so ties resolve the same on any split. */
    private static final Comparator<Map.Entry<String, Double>> WORST_FIRST =
            Comparator.comparingDouble((Map.Entry<String, Double> x) -> x.getValue())
                    .thenComparing(Map.Entry::getKey, Comparator.reverseOrder());

    /** The {@code k} entries nearest to {@code query} (by dot product), as a worst-first heap. */
    private static Collector<MemoryIndexes.Entry, ?, PriorityQueue<Map.Entry<String, Double>>>
            nearest(float[] query, int k) {
        return Collector.of(
                () -> new PriorityQueue<>(WORST_FIRST),
                (top, e) -> keepBest(top, Map.entry(e.memory().id(), dot(query, e.vector())), k),
                (a, b) -> {
                    b.forEach(x -> keepBest(a, x, k));
                    return a;
                });
    }

    private static void keepBest(
            PriorityQueue<Map.Entry<String, Double>> top, Map.Entry<String, Double> x, int k) {
        if (top.size() < k) {
            top.add(x);
        } else if (WORST_FIRST.compare(x, top.peek()) > 0) {
            top.poll();
            top.add(x);
        }
    }

    private void recordRecalls(String ns, List<String> ids, Instant at) {
        try {
            repository.recordRecalls(ns, ids, at);
            indexes.recalled(ns, ids, at);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not record recalls in namespace " + ns, e);
        }
    }

    private static Predicate<Memory> eligibility(RecallRequest r) {
        return m ->
                m.recallable()
                        && (r.userId().isEmpty()
                                || m.scope().userId().isEmpty()
                                || m.scope().userId().equals(r.userId()))
                        && (r.agentId().isEmpty()
                                || m.scope().agentId().isEmpty()
                                || m.scope().agentId().equals(r.agentId()))
                        && (r.types().isEmpty() || r.types().contains(m.type()))
                        && (r.layers().isEmpty() || r.layers().contains(m.layer()));
    }

    private static <T> T await(Future<T> future, long deadlineNanos) {
        long left = deadlineNanos - System.nanoTime();
        try {
            return future.get(Math.max(0, left), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            return null;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("recall search failed", e.getCause());
        }
    }

    // ---- maintenance ----------------------------------------------------------------------

    private void scheduledMaintenance() {
        try {
            maintain();
        } catch (RuntimeException e) {
            stats.maintenanceFailures.incrementAndGet();
            LOG.log(Level.WARNING, "memory maintenance failed", e);
        }
    }

    @Override
    public MaintenanceReport maintain() {
        store.changeLog().catchUp();
        int expired = 0;
        int pruned = 0;
        int reembedded = 0;
        List<List<String>> clusters = new ArrayList<>();
        for (String ns : namespaces()) {
            expired += expire(ns);
            pruned += prune(ns);
            reembedded += repairEmbeddings(ns);
            clusters.addAll(duplicateClusters(ns));
        }
        stats.expired.addAndGet(expired);
        stats.pruned.addAndGet(pruned);
        stats.reembedded.addAndGet(reembedded);
        stats.duplicateClusters.set(clusters.size());
        stats.maintenanceRuns.incrementAndGet();
        return new MaintenanceReport(expired, pruned, reembedded, clusters);
    }

    private List<String> namespaces() {
        List<String> out = new ArrayList<>();
        PageRequest page = PageRequest.first(PageRequest.MAX_LIMIT);
        while (true) {
            Page<Namespace> p = store.namespaces(page);
            p.items().forEach(n -> out.add(n.name()));
            if (!p.hasMore()) {
                return out;
            }
            page = new PageRequest(PageRequest.MAX_LIMIT, p.nextCursor());
        }
    }

    private int expire(String ns) {
        int n = 0;
        while (true) {
            Instant now = clock.instant();
            List<Memory> due = repository.expired(ns, now, MAINTENANCE_BATCH);
            if (due.isEmpty()) {
                return n;
            }
            ReentrantLock lock = lock(ns);
            lock.lock();
            try {
                List<MemoryRow> rows = new ArrayList<>();
                List<StatusTransition> transitions = new ArrayList<>();
                for (Memory m : due) {
                    lifecycle
                            .expireIfDue(m, now)
                            .ifPresent(
                                    t -> {
                                        rows.add(MemoryRow.keepEmbedding(t.memory()));
                                        transitions.addAll(t.transitions());
                                    });
                }
                persist(ns, rows, transitions);
                n += rows.size();
                if (due.size() < MAINTENANCE_BATCH) {
                    return n;
                }
            } finally {
                lock.unlock();
            }
        }
    }

    private int prune(String ns) {
        int n = 0;
        for (String user : repository.usersOverCap(ns, config.userCap())) {
            ReentrantLock lock = lock(ns);
            lock.lock();
            try {
                Instant now = clock.instant();
                List<MemoryRow> rows = new ArrayList<>();
                List<StatusTransition> transitions = new ArrayList<>();
                for (Memory m : repository.overCap(ns, user, config.userCap())) {
                    Transitioned t =
                            lifecycle.transition(
                                    m,
                                    MemoryStatus.STALE,
                                    now,
                                    StatusTransition.SYSTEM_ACTOR,
                                    "per-user cap " + config.userCap());
                    rows.add(MemoryRow.keepEmbedding(t.memory()));
                    transitions.addAll(t.transitions());
                }
                persist(ns, rows, transitions);
                n += rows.size();
            } finally {
                lock.unlock();
            }
        }
        return n;
    }

    private int repairEmbeddings(String ns) {
        int n = 0;
        while (true) {
            List<Memory> stale = repository.needingEmbedding(ns, model.id(), 64);
            if (stale.isEmpty()) {
                return n;
            }
            List<float[]> vectors =
                    model.embedDocuments(stale.stream().map(Memory::content).toList());
            ReentrantLock lock = lock(ns);
            lock.lock();
            try {
                List<MemoryRow> rows = new ArrayList<>();
                for (int i = 0; i < stale.size(); i++) {
                    Memory current = repository.find(ns, stale.get(i).id()).orElse(null);
                    if (current == null || !current.content().equals(stale.get(i).content())) {
                        continue;
                    }
                    rows.add(new MemoryRow(withModel(current, model.id()), vectors.get(i)));
                }
                persist(ns, rows, List.of());
                n += rows.size();
                if (rows.isEmpty()) {
                    return n;
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** Groups of same-scope same-type recallable memories with cosine >= merge similarity. */
    private List<List<String>> duplicateClusters(String ns) {
        Map<String, List<MemoryIndexes.Entry>> groups = new TreeMap<>();
        for (MemoryIndexes.Entry e : indexes.table(ns).values()) {
            if (e.memory().recallable() && e.vector().length > 0) {
                groups.computeIfAbsent(
                                e.memory().scope() + "|" + e.memory().type(),
                                k -> new ArrayList<>())
                        .add(e);
            }
        }
        double min = config.lifecycle().mergeSimilarity();
        List<List<String>> out = new ArrayList<>();
        for (List<MemoryIndexes.Entry> group : groups.values()) {
            if (group.size() < 2 || group.size() > MAX_CLUSTER_GROUP) {
                continue;
            }
            group.sort(Comparator.comparing(e -> e.memory().id()));
            int[] parent = new int[group.size()];
            for (int i = 0; i < parent.length; i++) {
                parent[i] = i;
            }
            for (int i = 0; i < group.size(); i++) {
                for (int j = i + 1; j < group.size(); j++) {
                    if (group.get(i).vector().length == group.get(j).vector().length
                            && dot(group.get(i).vector(), group.get(j).vector()) >= min) {
                        parent[find(parent, i)] = find(parent, j);
                    }
                }
            }
            Map<Integer, List<String>> byRoot = new TreeMap<>();
            for (int i = 0; i < group.size(); i++) {
                byRoot.computeIfAbsent(find(parent, i), k -> new ArrayList<>())
                        .add(group.get(i).memory().id());
            }
            byRoot.values().stream().filter(c -> c.size() > 1).forEach(out::add);
        }
        return out;
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    // ---- helpers --------------------------------------------------------------------------

    @Override
    public MemoryStats stats() {
        return stats;
    }

    @Override
    public String embeddingModelId() {
        return model.id();
    }

    private void requireNamespace(String ns) {
        if (store.namespace(ns).isEmpty()) {
            throw new NoSuchElementException("namespace '" + ns + "' does not exist");
        }
    }

    private ReentrantLock lock(String namespace) {
        return locks.computeIfAbsent(namespace, k -> new ReentrantLock());
    }

    private static String note(String what, String reason) {
        return reason.isBlank() ? what : what + ": " + reason.strip();
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    static String newId() {
        byte[] random = new byte[8];
        RANDOM.nextBytes(random);
        return "mem_"
                + String.format("%012x", System.currentTimeMillis())
                + HexFormat.of().formatHex(random);
    }

    /** Lucene's dot product: SIMD through the Vector API when the JVM has it, else unrolled. */
    static double dot(float[] a, float[] b) {
        return VectorUtil.dotProduct(a, b);
    }

    private static double clampCos(double c) {
        return Math.max(-1.0, Math.min(1.0, c));
    }

    private static NewMemory withContent(NewMemory d, String content) {
        return new NewMemory(
                d.scope(),
                d.type(),
                content,
                d.layer(),
                d.tags(),
                d.confidence(),
                d.importance(),
                d.conflictKey(),
                d.source(),
                d.ttl());
    }

    private static Memory withModel(Memory m, String modelId) {
        return new Memory(
                m.id(),
                m.scope(),
                m.type(),
                m.layer(),
                m.status(),
                m.content(),
                m.contentHash(),
                m.tags(),
                m.confidence(),
                m.importance(),
                m.conflictKey(),
                m.source(),
                m.createdAt(),
                m.updatedAt(),
                m.expiresAt(),
                m.lastRecalledAt(),
                m.recalledCount(),
                m.disabled(),
                m.deleted(),
                modelId);
    }

    @Override
    public void close() {
        maintenance.shutdownNow();
        recorder.shutdown();
        try {
            if (!recorder.awaitTermination(5, TimeUnit.SECONDS)) {
                recorder.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        searchers.shutdownNow();
        try {
            store.changeLog().unfollow(indexes); // commits what it applied
        } finally {
            indexes.close();
        }
    }
}
