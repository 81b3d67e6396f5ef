package dev.cairn.memory.service;

import dev.cairn.memory.Memory;
import dev.cairn.memory.TextNormalizer;
import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.retrieval.lexical.IndexedChunk;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.retrieval.store.Change;
import dev.cairn.retrieval.store.Store;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Derived indexes of memories: BM25 (one Lucene document per memory, document id = chunk id =
 * memory id) and an in-memory table of every live memory with its vector for exact cosine search.
 * Both are rebuilt from the store: the table per namespace on first use, Lucene by replaying the
 * store's change sequence from its last committed position. Thread-safe. The service applies its
 * own writes right after they commit (read-your-writes); writes of other servers sharing the
 * database arrive with the next catch-up (every maintenance run), so replicas are eventually
 * consistent.
 */
final class MemoryIndexes implements AutoCloseable {

    /**
     * A live memory as recall sees it: its vector (empty when not embedded yet) and its content
     * normalised once here for recall's exact-match rule, instead of once per candidate per recall.
     */
    record Entry(Memory memory, float[] vector, String normalizedContent) {
        Entry(Memory memory, float[] vector) {
            this(memory, vector, TextNormalizer.normalize(memory.content()));
        }
    }

    private final Store store;
    private final MemoryRepository repository;
    private final LexicalIndex lexical;
    private final Map<String, Map<String, Entry>> tables = new ConcurrentHashMap<>();
    private final Object catchUpLock = new Object();

    MemoryIndexes(Store store, MemoryRepository repository, LexicalIndex lexical) {
        this.store = store;
        this.repository = repository;
        this.lexical = lexical;
    }

    LexicalIndex lexical() {
        return lexical;
    }

    /** The live memories of a namespace, loading them on first use. */
    Map<String, Entry> table(String namespace) {
        Map<String, Entry> table = tables.get(namespace);
        if (table != null) {
            return table;
        }
        synchronized (tables) {
            table = tables.get(namespace);
            if (table == null) {
                Map<String, Entry> loaded = new ConcurrentHashMap<>();
                repository.forEachLive(namespace, (m, v) -> loaded.put(m.id(), new Entry(m, v)));
                tables.put(namespace, loaded);
                table = loaded;
            }
            return table;
        }
    }

    Optional<Entry> entry(String namespace, String id) {
        return Optional.ofNullable(table(namespace).get(id));
    }

    /**
     * Applies a written memory: an empty {@code vector} keeps the known one. Deleted memories leave
     * both indexes.
     */
    void apply(Memory memory, float[] vector) {
        String ns = memory.scope().namespace();
        Map<String, Entry> table = tables.get(ns);
        if (memory.deleted()) {
            if (table != null) {
                table.remove(memory.id());
            }
            lexical.deleteDocument(ns, memory.id());
            return;
        }
        if (table != null) {
            Entry old = table.get(memory.id());
            float[] v = vector.length > 0 ? vector : old == null ? new float[0] : old.vector();
            boolean contentChanged =
                    old == null || !old.memory().content().equals(memory.content());
            table.put(memory.id(), new Entry(memory, v));
            if (!contentChanged) {
                return;
            }
        }
        lexical.upsertDocument(
                ns,
                memory.id(),
                List.of(new IndexedChunk(memory.id(), "", List.of(), memory.content())));
    }

    /** Updates cached recall bookkeeping without touching Lucene. */
    void recalled(String namespace, Collection<String> ids, java.time.Instant at) {
        Map<String, Entry> table = tables.get(namespace);
        if (table == null) {
            return;
        }
        for (String id : ids) {
            table.computeIfPresent(
                    id,
                    (k, e) ->
                            new Entry(e.memory().recalled(at), e.vector(), e.normalizedContent()));
        }
    }

    /**
     * Replays the store's change sequence since Lucene's last applied position (writes of other
     * servers, or everything after a lost index), then commits Lucene. Idempotent.
     *
     * @return how many memory changes were applied
     */
    int catchUp() {
        synchronized (catchUpLock) {
            int applied = 0;
            long seq = lexical.lastAppliedSeq();
            while (true) {
                List<Change> changes = store.changesSince(seq, 1000);
                if (changes.isEmpty()) {
                    break;
                }
                for (Change change : changes) {
                    seq = change.seq();
                    if (change.kind() == Change.Kind.NAMESPACE && change.op() == Change.Op.DELETE) {
                        lexical.deleteNamespace(change.namespace());
                        tables.remove(change.namespace());
                    } else if (change.kind() == Change.Kind.MEMORY) {
                        Optional<Memory> m = repository.find(change.namespace(), change.entityId());
                        if (m.isEmpty() || m.get().deleted()) {
                            lexical.deleteDocument(change.namespace(), change.entityId());
                            Map<String, Entry> t = tables.get(change.namespace());
                            if (t != null) {
                                t.remove(change.entityId());
                            }
                        } else {
                            float[] v =
                                    tables.containsKey(change.namespace())
                                            ? repository.embedding(
                                                    change.namespace(), change.entityId())
                                            : new float[0];
                            forceApply(m.get(), v);
                        }
                        applied++;
                    }
                }
            }
            lexical.setLastAppliedSeq(seq);
            lexical.commit();
            return applied;
        }
    }

    private void forceApply(Memory memory, float[] vector) {
        String ns = memory.scope().namespace();
        Map<String, Entry> table = tables.get(ns);
        if (table != null) {
            Entry old = table.get(memory.id());
            float[] v = vector.length > 0 ? vector : old == null ? new float[0] : old.vector();
            table.put(memory.id(), new Entry(memory, v));
        }
        lexical.upsertDocument(
                ns,
                memory.id(),
                List.of(new IndexedChunk(memory.id(), "", List.of(), memory.content())));
    }

    void commit() {
        lexical.commit();
    }

    @Override
    public void close() {
        lexical.close();
    }
}
