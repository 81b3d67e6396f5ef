package dev.cairn.memory.service;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.memory.Memory;
import dev.cairn.memory.MemoryLifecycle;
import dev.cairn.memory.MemoryStatus;
import dev.cairn.memory.StatusTransition;
import dev.cairn.memory.Transitioned;
import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.memory.store.MemoryRow;
import dev.cairn.retrieval.TraceErasure;
import dev.cairn.retrieval.dense.UnitVectors;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.jgrapht.alg.util.UnionFind;

/**
 * The maintenance side of {@link DefaultMemoryService}, run on a schedule and on demand: expires
 * memories past their time to live, marks memories over the per-user cap stale, re-embeds those of
 * another model, and reports clusters of near-duplicates (same scope and type, cosine at or above
 * the merge similarity) that de-duplication at write time let through.
 *
 * <p>Thread-safe: each batch of changes holds its namespace's lock; the scheduled runs are on one
 * thread of this class's own.
 */
final class MemoryMaintenance implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(MemoryMaintenance.class.getName());
    private static final int MAINTENANCE_BATCH = 500;

    /** Groups larger than this are not clustered: the pairwise comparison is quadratic. */
    private static final int MAX_CLUSTER_GROUP = 2000;

    private final Store store;
    private final MemoryRepository repository;
    private final EmbeddingModel model;
    private final MemoryServiceConfig config;
    private final Clock clock;
    private final MemoryLifecycle lifecycle;
    private final MemoryIndexes indexes;
    private final MemoryStats stats;
    private final NamespaceLocks locks;
    private final MemoryWriter writer;
    private final ScheduledExecutorService maintenance =
            Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().name("cairn-memory-maintenance").daemon().factory());

    MemoryMaintenance(
            Store store,
            MemoryRepository repository,
            EmbeddingModel model,
            MemoryServiceConfig config,
            Clock clock,
            MemoryLifecycle lifecycle,
            MemoryIndexes indexes,
            MemoryStats stats,
            NamespaceLocks locks,
            MemoryWriter writer) {
        this.store = store;
        this.repository = repository;
        this.model = model;
        this.config = config;
        this.clock = clock;
        this.lifecycle = lifecycle;
        this.indexes = indexes;
        this.stats = stats;
        this.locks = locks;
        this.writer = writer;
    }

    /** Starts the scheduled runs, every {@link MemoryServiceConfig.Maintenance#interval()}. */
    void schedule() {
        if (!config.maintenance().interval().isZero()) {
            long period = config.maintenance().interval().toMillis();
            maintenance.scheduleWithFixedDelay(
                    this::scheduledMaintenance, period, period, TimeUnit.MILLISECONDS);
        }
    }

    private void scheduledMaintenance() {
        try {
            maintain();
        } catch (RuntimeException e) {
            stats.maintenanceFailures.incrementAndGet();
            LOG.log(Level.WARNING, "memory maintenance failed", e);
        }
    }

    MaintenanceReport maintain() {
        store.changeLog().catchUp();
        int expired = 0;
        int pruned = 0;
        int reembedded = 0;
        List<List<String>> clusters = new ArrayList<>();
        for (String ns : namespaces()) {
            expired += expire(ns);
            pruned += prune(ns);
            reembedded += repairEmbeddings(ns);
            reembedded += repairWindows(ns);
            clusters.addAll(duplicateClusters(ns));
            purgeOldTraces(ns);
        }
        stats.expired.addAndGet(expired);
        stats.pruned.addAndGet(pruned);
        stats.reembedded.addAndGet(reembedded);
        stats.duplicateClusters.set(clusters.size());
        stats.maintenanceRuns.incrementAndGet();
        return new MaintenanceReport(expired, pruned, reembedded, clusters);
    }

    /** Retention: the namespace's stored retrieve traces older than the configured age go. */
    private void purgeOldTraces(String namespace) {
        if (!config.maintenance().traceMaxAge().isZero()) {
            TraceErasure.eraseOlderThan(
                    store.sql(),
                    namespace,
                    clock.instant().minus(config.maintenance().traceMaxAge()));
        }
    }

    private List<String> namespaces() {
        List<String> out = new ArrayList<>();
        Page.forEachItem(PageRequest.MAX_LIMIT, store::namespaces, n -> out.add(n.name()));
        return out;
    }

    private int expire(String ns) {
        int n = 0;
        while (true) {
            Instant now = clock.instant();
            List<Memory> due = repository.expired(ns, now, MAINTENANCE_BATCH);
            if (due.isEmpty()) {
                return n;
            }
            ReentrantLock lock = locks.of(ns);
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
                writer.persist(ns, rows, transitions);
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
        for (String user : repository.usersOverCap(ns, config.maintenance().userCap())) {
            ReentrantLock lock = locks.of(ns);
            lock.lock();
            try {
                Instant now = clock.instant();
                List<MemoryRow> rows = new ArrayList<>();
                List<StatusTransition> transitions = new ArrayList<>();
                for (Memory m : repository.overCap(ns, user, config.maintenance().userCap())) {
                    Transitioned t =
                            lifecycle.transition(
                                    m,
                                    MemoryStatus.STALE,
                                    now,
                                    StatusTransition.SYSTEM_ACTOR,
                                    "per-user cap " + config.maintenance().userCap());
                    rows.add(MemoryRow.keepEmbedding(t.memory()));
                    transitions.addAll(t.transitions());
                }
                writer.persist(ns, rows, transitions);
                n += rows.size();
            } finally {
                lock.unlock();
            }
        }
        return n;
    }

    /**
     * Computes the turn windows' vectors ({@link dev.cairn.memory.TurnWindows}) of conversation
     * turns that have none computed: turns written before windows existed and imported ones (an
     * embedding maintenance repairs comes with its windows). A turn with a short line is marked as
     * having none.
     */
    private int repairWindows(String ns) {
        return repair(
                ns,
                () -> repository.needingWindows(ns, 64),
                missing -> {
                    List<List<float[]>> windows =
                            TurnWindowVectors.windowsOf(
                                    model,
                                    missing.stream().map(Memory::content).toList(),
                                    missing.stream().map(ConversationTurns::isTurn).toList());
                    return (i, current) -> new MemoryRow(current, new float[0], windows.get(i));
                });
    }

    private int repairEmbeddings(String ns) {
        return repair(
                ns,
                () -> repository.needingEmbedding(ns, model.id(), 64),
                stale -> {
                    TurnWindowVectors.Embedded embedded = TurnWindowVectors.embed(model, stale);
                    return (i, current) ->
                            new MemoryRow(
                                    withModel(current, model.id()),
                                    embedded.vectors().get(i),
                                    embedded.windows().get(i));
                });
    }

    /** The row that repairs the {@code i}-th memory of a batch, given its current version. */
    private interface Repaired {
        MemoryRow row(int i, Memory current);
    }

    /**
     * Repairs the batches {@code next} finds until it finds none: each batch's vectors are computed
     * outside the namespace's lock (the model's work), then, under it, the memories whose text did
     * not change meanwhile are written. The number of memories written.
     */
    private int repair(
            String ns, Supplier<List<Memory>> next, Function<List<Memory>, Repaired> compute) {
        int n = 0;
        while (true) {
            List<Memory> batch = next.get();
            if (batch.isEmpty()) {
                return n;
            }
            Repaired repaired = compute.apply(batch);
            ReentrantLock lock = locks.of(ns);
            lock.lock();
            try {
                List<MemoryRow> rows = new ArrayList<>();
                for (int i = 0; i < batch.size(); i++) {
                    Memory current = repository.find(ns, batch.get(i).id()).orElse(null);
                    if (current == null || !current.content().equals(batch.get(i).content())) {
                        continue;
                    }
                    rows.add(repaired.row(i, current));
                }
                writer.persist(ns, rows, List.of());
                n += rows.size();
                if (rows.isEmpty()) {
                    return n;
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** A live memory and its vector, as the duplicate report compares them. */
    private record Live(Memory memory, float[] vector) {}

    /**
     * The namespace's live memories: from its table when this server holds it, else read from the
     * store and not kept. Maintenance runs over every namespace; loading each table would make
     * every server hold every namespace's table (and push the ones its requests use out of the
     * resident bound), where a load balancer routing by namespace gives each server its share.
     */
    private List<Live> live(String ns) {
        List<Live> out = new ArrayList<>();
        Optional<Map<String, MemoryIndexes.Entry>> table = indexes.loaded(ns);
        if (table.isPresent()) {
            table.get().values().forEach(e -> out.add(new Live(e.memory(), e.vector())));
        } else {
            repository.forEachLive(ns, (m, v, windows) -> out.add(new Live(m, v)));
        }
        return out;
    }

    /** Groups of same-scope same-type recallable memories with cosine >= merge similarity. */
    private List<List<String>> duplicateClusters(String ns) {
        Map<String, List<Live>> groups = new TreeMap<>();
        for (Live e : live(ns)) {
            if (e.memory().recallable() && e.vector().length > 0) {
                groups.computeIfAbsent(
                                e.memory().scope() + "|" + e.memory().type(),
                                k -> new ArrayList<>())
                        .add(e);
            }
        }
        double min = config.lifecycle().mergeSimilarity();
        List<List<String>> out = new ArrayList<>();
        for (List<Live> group : groups.values()) {
            if (group.size() < 2 || group.size() > MAX_CLUSTER_GROUP) {
                continue;
            }
            group.sort(Comparator.comparing(e -> e.memory().id()));
            UnionFind<Integer> sets =
                    new UnionFind<>(
                            new TreeSet<>(IntStream.range(0, group.size()).boxed().toList()));
            for (int i = 0; i < group.size(); i++) {
                for (int j = i + 1; j < group.size(); j++) {
                    if (group.get(i).vector().length == group.get(j).vector().length
                            && UnitVectors.cosine(group.get(i).vector(), group.get(j).vector())
                                    >= min) {
                        sets.union(i, j);
                    }
                }
            }
            // in the order of each cluster's smallest id, whichever member the union made root
            Map<Integer, List<String>> byRoot = new LinkedHashMap<>();
            for (int i = 0; i < group.size(); i++) {
                byRoot.computeIfAbsent(sets.find(i), k -> new ArrayList<>())
                        .add(group.get(i).memory().id());
            }
            byRoot.values().stream().filter(c -> c.size() > 1).forEach(out::add);
        }
        return out;
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
    }
}
