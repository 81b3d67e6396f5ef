package dev.cairn.memory.service;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.memory.DedupDecision;
import dev.cairn.memory.Memory;
import dev.cairn.memory.MemoryLifecycle;
import dev.cairn.memory.MemorySource;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.Neighbour;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;
import dev.cairn.memory.StatusTransition;
import dev.cairn.memory.TextNormalizer;
import dev.cairn.memory.Transitioned;
import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.memory.store.MemoryRow;
import dev.cairn.retrieval.dense.UnitVectors;
import dev.cairn.safety.SafetyRule;
import dev.cairn.safety.WriteBlockedException;
import dev.cairn.safety.WriteGuard;
import dev.cairn.safety.WriteTarget;
import dev.cairn.store.Store;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The write side of {@link DefaultMemoryService}: writes through write safety, redaction,
 * de-duplication against the nearest same-type memories and supersession; edits; status changes.
 * Every write commits rows and status transitions in one transaction and catches the store's change
 * log up before returning, so the next dedup decision or recall on this server sees it.
 *
 * <p>Thread-safe: writes into one namespace hold its lock ({@link NamespaceLocks}).
 */
final class MemoryWriter {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Store store;
    private final MemoryRepository repository;
    private final EmbeddingModel model;
    private final WriteGuard guard;
    private final MemoryServiceConfig config;
    private final Clock clock;
    private final MemoryLifecycle lifecycle;
    private final MemoryIndexes indexes;
    private final MemoryStats stats;
    private final NamespaceLocks locks;

    MemoryWriter(
            Store store,
            MemoryRepository repository,
            EmbeddingModel model,
            WriteGuard guard,
            MemoryServiceConfig config,
            Clock clock,
            MemoryLifecycle lifecycle,
            MemoryIndexes indexes,
            MemoryStats stats,
            NamespaceLocks locks) {
        this.store = store;
        this.repository = repository;
        this.model = model;
        this.guard = guard;
        this.config = config;
        this.clock = clock;
        this.lifecycle = lifecycle;
        this.indexes = indexes;
        this.stats = stats;
        this.locks = locks;
    }

    WriteResult write(NewMemory draft, String actor) {
        return writeAll(List.of(draft), actor, null).getFirst();
    }

    List<WriteResult> writeAll(List<NewMemory> drafts, String actor, Instant at) {
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
            clean.add(withGuardedFields(draft, guarded.text()));
        }
        for (String ns : clean.stream().map(d -> d.scope().namespace()).distinct().toList()) {
            requireNamespace(ns);
        }
        TurnWindowVectors.Embedded embedded =
                TurnWindowVectors.embed(
                        model,
                        clean.stream().map(NewMemory::content).toList(),
                        clean.stream()
                                .map(d -> ConversationTurns.isTurn(d.source(), d.scope()))
                                .toList());
        List<WriteResult> results = new ArrayList<>();
        for (int i = 0; i < clean.size(); i++) {
            results.add(
                    writeOne(
                            clean.get(i),
                            embedded.vectors().get(i),
                            embedded.windows().get(i),
                            guards.get(i),
                            at));
        }
        return results;
    }

    private WriteResult writeOne(
            NewMemory clean,
            float[] vector,
            List<float[]> windows,
            WriteGuard.Guarded guarded,
            Instant at) {
        List<SafetyRule> flagged = guarded.storeDisabled() ? guarded.safety().rules() : List.of();
        String ns = clean.scope().namespace();
        ReentrantLock lock = locks.of(ns);
        lock.lock();
        try {
            Instant now = at == null ? clock.instant() : at;
            // Redacted secrets cannot be compared: two memories that each held a different key
            // read the same once redacted, so one that held a secret never merges or deduplicates.
            DedupDecision decision =
                    guarded.redaction().counts().isEmpty()
                            ? lifecycle.decide(clean, neighbours(clean, vector))
                            : new DedupDecision.Insert();
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
                    rows.add(new MemoryRow(created, vector, windows));
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
                    e == null || e.vector().length == 0
                            ? 1.0
                            : clampCos(UnitVectors.cosine(vector, e.vector()));
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
            double cos = UnitVectors.cosine(vector, e.vector());
            if (cos >= min) {
                out.put(m.id(), new Neighbour(m, clampCos(cos)));
            }
        }
        return List.copyOf(out.values());
    }

    WriteResult update(String namespace, String id, List<MemoryEdit> edits, String actor) {
        ReentrantLock lock = locks.of(namespace);
        lock.lock();
        try {
            Memory m = live(repository, namespace, id);
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
                    case MemoryEdit.Tags t ->
                            tags = t.tags().stream().map(x -> guard.identifier(x, "tags")).toList();
                    case MemoryEdit.Confidence c -> confidence = c.value();
                    case MemoryEdit.Importance i -> importance = i.value();
                    case MemoryEdit.LayerEdit l -> layer = l.layer();
                    case MemoryEdit.TypeEdit t -> type = t.type();
                    case MemoryEdit.ConflictKey k ->
                            conflictKey = guard.identifier(k.key(), "conflictKey");
                }
            }
            boolean newContent = !content.equals(m.content());
            TurnWindowVectors.Embedded embedded =
                    newContent
                            ? TurnWindowVectors.embed(
                                    model,
                                    List.of(content),
                                    List.of(ConversationTurns.isTurn(m.source(), m.scope())))
                            : null;
            float[] vector = newContent ? embedded.vectors().getFirst() : new float[0];
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
            List<float[]> windows = newContent ? embedded.windows().getFirst() : null;
            persist(namespace, List.of(new MemoryRow(updated, vector, windows)), List.of());
            return new WriteResult(
                    updated, WriteResult.Outcome.UPDATED, 0.0, List.of(), redactions, flagged);
        } finally {
            lock.unlock();
        }
    }

    void delete(String namespace, String id, String actor) {
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

    Memory disable(String namespace, String id, String actor, String reason) {
        return setDisabled(namespace, id, actor, reason, true);
    }

    Memory enable(String namespace, String id, String actor, String reason) {
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

    Memory invalidate(String namespace, String id, String actor, String reason) {
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
        ReentrantLock lock = locks.of(namespace);
        lock.lock();
        try {
            Memory m = live(repository, namespace, id);
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
    void persist(String namespace, List<MemoryRow> rows, List<StatusTransition> transitions) {
        repository.write(namespace, rows, transitions);
        store.changeLog().catchUp();
    }

    /** A live (not deleted) memory. */
    static Memory live(MemoryRepository repository, String namespace, String id) {
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

    private void requireNamespace(String ns) {
        if (store.namespace(ns).isEmpty()) {
            throw new NoSuchElementException("namespace '" + ns + "' does not exist");
        }
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

    private static double clampCos(double c) {
        return Math.max(-1.0, Math.min(1.0, c));
    }

    /**
     * The draft as stored: the guarded content, identifying fields checked for secrets (a secret
     * there refuses the write, see {@link WriteGuard#identifier}) and the source reference
     * redacted.
     */
    private NewMemory withGuardedFields(NewMemory d, String content) {
        Scope s = d.scope();
        Scope scope =
                new Scope(
                        s.namespace(),
                        guard.identifier(s.userId(), "userId"),
                        guard.identifier(s.agentId(), "agentId"),
                        guard.identifier(s.sessionName(), "sessionName"),
                        guard.identifier(s.taskName(), "taskName"),
                        guard.identifier(s.parentTask(), "parentTask"));
        List<String> tags = new ArrayList<>();
        for (String tag : d.tags()) {
            tags.add(guard.identifier(tag, "tags"));
        }
        MemorySource source =
                new MemorySource(d.source().kind(), guard.redacted(d.source().reference()));
        return new NewMemory(
                scope,
                d.type(),
                content,
                d.layer(),
                tags,
                d.confidence(),
                d.importance(),
                guard.identifier(d.conflictKey(), "conflictKey"),
                source,
                d.ttl());
    }
}
