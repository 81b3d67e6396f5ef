package dev.cairn.memory.service;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.TokenCounter;
import dev.cairn.memory.ContextAssembler;
import dev.cairn.memory.Memory;
import dev.cairn.memory.MemoryLifecycle;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.RecallScorer;
import dev.cairn.memory.StatusTransition;
import dev.cairn.memory.store.MemoryFilter;
import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.AdaptationStore;
import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.safety.WriteGuard;
import dev.cairn.store.Namespace;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;

/**
 * Default {@link MemoryService}: wires the derived {@link MemoryIndexes} into the store's change
 * log and hands each call to its side, {@link MemoryWriter} (writes, edits, status changes), {@link
 * MemoryRecall} (hybrid recall) or {@link MemoryMaintenance}; reads go to the repository. Thread-
 * safe; writes in one namespace hold its lock.
 */
final class DefaultMemoryService implements MemoryService {

    /**
     * Token counts context assembly keeps (entry contents and prefixes, a few per memory): enough
     * for the memories recalled most often, a few MB at most.
     */
    private static final int TOKEN_COUNTS_CACHED = 50_000;

    private final Store store;
    private final MemoryRepository repository;
    private final EmbeddingModel model;
    private final MemoryIndexes indexes;
    private final MemoryStats stats = new MemoryStats();
    private final MemoryWriter writer;
    private final MemoryRecall recall;
    private final MemoryMaintenance maintenance;
    private final MemoryAdaptations adaptations;

    DefaultMemoryService(
            Store store,
            EmbeddingModel model,
            LexicalIndex lexical,
            WriteGuard guard,
            MemoryServiceConfig config,
            Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.model = Objects.requireNonNull(model, "model");
        Objects.requireNonNull(guard, "guard");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(clock, "clock");
        this.repository = MemoryRepository.over(store);
        MemoryLifecycle lifecycle = MemoryLifecycle.create(config.lifecycle());
        NamespaceLocks locks = new NamespaceLocks();
        this.indexes =
                new MemoryIndexes(
                        repository, Objects.requireNonNull(lexical), config.residentBytes(), stats);
        stats.resident = indexes::resident;
        this.writer =
                new MemoryWriter(
                        store,
                        repository,
                        model,
                        guard,
                        config,
                        clock,
                        lifecycle,
                        indexes,
                        stats,
                        locks);
        this.recall =
                new MemoryRecall(
                        repository,
                        model,
                        config,
                        clock,
                        RecallScorer.create(config.recall().scoreWeights()),
                        ContextAssembler.create(
                                TokenCounter.caching(model.tokenCounter(), TOKEN_COUNTS_CACHED)),
                        indexes,
                        stats);
        this.adaptations = new MemoryAdaptations(store, model, recall, indexes);
        this.maintenance =
                new MemoryMaintenance(
                        store,
                        repository,
                        model,
                        config,
                        clock,
                        lifecycle,
                        indexes,
                        stats,
                        locks,
                        writer);
        store.changeLog().follow(indexes);
        maintenance.schedule();
    }

    // ---- writes ---------------------------------------------------------------------------

    @Override
    public WriteResult write(NewMemory draft, String actor) {
        return writer.write(draft, actor);
    }

    @Override
    public List<WriteResult> writeAll(List<NewMemory> drafts, String actor, Instant at) {
        return writer.writeAll(drafts, actor, at);
    }

    @Override
    public WriteResult update(String namespace, String id, List<MemoryEdit> edits, String actor) {
        return writer.update(namespace, id, edits, actor);
    }

    @Override
    public void delete(String namespace, String id, String actor) {
        writer.delete(namespace, id, actor);
    }

    @Override
    public Memory disable(String namespace, String id, String actor, String reason) {
        return writer.disable(namespace, id, actor, reason);
    }

    @Override
    public Memory enable(String namespace, String id, String actor, String reason) {
        return writer.enable(namespace, id, actor, reason);
    }

    @Override
    public Memory invalidate(String namespace, String id, String actor, String reason) {
        return writer.invalidate(namespace, id, actor, reason);
    }

    // ---- reads ----------------------------------------------------------------------------

    @Override
    public Memory get(String namespace, String id) {
        return MemoryWriter.live(repository, namespace, id);
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

    @Override
    public RecallResult recall(RecallRequest request) {
        Namespace namespace =
                store.namespace(request.namespace())
                        .orElseThrow(
                                () ->
                                        new NoSuchElementException(
                                                "namespace '"
                                                        + request.namespace()
                                                        + "' does not exist"));
        if (request.userId().isEmpty()
                && request.scope().orElse(namespace.recallScope()) == Namespace.RecallScope.USER) {
            throw new IllegalArgumentException(
                    "namespace '"
                            + namespace.name()
                            + "' recalls one user at a time (its recallScope is 'user'): pass"
                            + " userId, or \"scope\": \"namespace\" to recall every user's"
                            + " memories");
        }
        return recall.recall(request, adaptations.active(namespace.name()));
    }

    // ---- learning from judgments ------------------------------------------------------------

    @Override
    public Adaptation tune(String namespace, TuneOptions options) {
        requireNamespace(namespace);
        return adaptations.tune(namespace, options);
    }

    @Override
    public Optional<Adaptation> rollbackAdaptation(String namespace) {
        requireNamespace(namespace);
        return adaptations.rollback(namespace);
    }

    @Override
    public AdaptationStore adaptations() {
        return adaptations.store();
    }

    private void requireNamespace(String namespace) {
        if (store.namespace(namespace).isEmpty()) {
            throw new NoSuchElementException("namespace '" + namespace + "' does not exist");
        }
    }

    // ---- maintenance ----------------------------------------------------------------------

    @Override
    public MaintenanceReport maintain() {
        return maintenance.maintain();
    }

    @Override
    public MemoryStats stats() {
        return stats;
    }

    @Override
    public String embeddingModelId() {
        return model.id();
    }

    @Override
    public void close() {
        maintenance.close();
        recall.close();
        try {
            store.changeLog().unfollow(indexes); // commits what it applied
        } finally {
            indexes.close();
        }
    }
}
