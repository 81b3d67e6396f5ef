package dev.cairn.memory.service;

import dev.cairn.memory.Facet;
import dev.cairn.memory.InformalText;
import dev.cairn.memory.Memory;
import dev.cairn.memory.NameMentions;
import dev.cairn.memory.PersonNames;
import dev.cairn.memory.TextNormalizer;
import dev.cairn.memory.TimeMentions;
import dev.cairn.memory.TranscriptLine;
import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.memory.store.RecallTally;
import dev.cairn.retrieval.lexical.IndexedChunk;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.safety.SafeText;
import dev.cairn.store.Change;
import dev.cairn.store.DerivedIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Derived indexes of memories, one {@link DerivedIndex} of the store's change log: BM25 (one Lucene
 * document per memory, document id = chunk id = memory id, on disk, so its position survives a
 * restart) and an in-memory table of every live memory with its vector for exact cosine search,
 * loaded per namespace on first use. A {@code MEMORY} change re-reads the memory (and, for a loaded
 * table, its vector). The service catches the log up right after each write it commits
 * (read-your-writes); writes of other servers sharing the database arrive with the log's next
 * round. Thread-safe: the change log applies changes one at a time; readers see the tables as
 * concurrent maps.
 *
 * <p>Why about 500 lines: both of a namespace's memory structures (BM25 and the table) follow the
 * change log as one index, and the table's lifecycle (load on demand, bounded residency, the
 * people's names learned from it) shares one lock with the changes, so that a change and a load
 * never interleave.
 */
final class MemoryIndexes implements DerivedIndex.ChangeByChange, AutoCloseable {

    /**
     * A live memory as recall sees it: its vector (empty when not embedded yet) and what recall
     * reads of its text, each read once: the names it gives (at load: learning the namespace's
     * people reads every memory's), and, on first use, since recall asks them only of its
     * candidates, its content normalised for the exact-match rule, whether it says when something
     * happened ({@link TimeMentions#statesTime}) and the facets it tells of. A memory whose text is
     * only read when a recall reaches it costs its table's load nothing. Thread-safe: a part read
     * twice by racing recalls is the same value.
     */
    static final class Entry {
        private final Memory memory;
        private final float[] vector;
        private final List<float[]> windows;
        private final List<NameMentions.Mention> names;
        private final TextParts parts;

        Entry(Memory memory, float[] vector) {
            this(memory, vector, List.of());
        }

        Entry(Memory memory, float[] vector, List<float[]> windows) {
            this(
                    memory,
                    vector,
                    windows,
                    NameMentions.of(memory.content()),
                    new TextParts(memory.content()));
        }

        private Entry(
                Memory memory,
                float[] vector,
                List<float[]> windows,
                List<NameMentions.Mention> names,
                TextParts parts) {
            this.memory = memory;
            this.vector = vector;
            this.windows = windows;
            this.names = names;
            this.parts = parts;
        }

        /** The same entry for another version of its memory with the same text. */
        Entry with(Memory changed) {
            return new Entry(changed, vector, windows, names, parts);
        }

        Memory memory() {
            return memory;
        }

        float[] vector() {
            return vector;
        }

        /** The vectors of its turn windows ({@link dev.cairn.memory.TurnWindows}); often none. */
        List<float[]> windows() {
            return windows;
        }

        List<NameMentions.Mention> names() {
            return names;
        }

        String normalizedContent() {
            return parts.normalized();
        }

        boolean statesTime() {
            return parts.read().statesTime();
        }

        Set<Facet> facets() {
            return parts.read().facets();
        }

        /** Words of the memory's own line (the last line of a remembered exchange). */
        int ownWords() {
            return parts.read().ownWords();
        }

        /** Whether the memory's own line ends asking ({@link TranscriptLine#asks()}). */
        boolean asks() {
            return parts.read().asks();
        }
    }

    /** The parts of a text recall reads only for candidates, each computed on first use. */
    private static final class TextParts {
        private final String content;
        private volatile String normalized;
        private volatile Read read;

        private record Read(boolean statesTime, Set<Facet> facets, int ownWords, boolean asks) {}

        TextParts(String content) {
            this.content = content;
        }

        String normalized() {
            String n = normalized;
            if (n == null) {
                n = TextNormalizer.normalize(content);
                normalized = n;
            }
            return n;
        }

        Read read() {
            Read r = read;
            if (r == null) {
                String matching = matching(content);
                TranscriptLine own = TranscriptLine.last(content);
                r =
                        new Read(
                                TimeMentions.statesTime(matching),
                                Facet.told(matching),
                                own.words(),
                                own.asks());
                read = r;
            }
            return r;
        }
    }

    /**
     * The copy of a memory's text that BM25, times and facets read: {@link SafeText#normalize} (the
     * stored text keeps its compatibility forms and invisible characters), then {@link
     * InformalText}.
     */
    static String matching(String content) {
        return InformalText.normalize(SafeText.normalize(content));
    }

    /** A namespace's people's names as learned from the table at one version of it. */
    private record People(long version, PersonNames names) {}

    private static final System.Logger LOG = System.getLogger(MemoryIndexes.class.getName());

    /** A table load slower than this is logged (what a cold namespace costs its first recall). */
    private static final long LOG_LOADS_OVER_NANOS = 200_000_000L;

    private final MemoryRepository repository;
    private final LexicalIndex lexical;
    private final Map<String, Map<String, Entry>> tables = new ConcurrentHashMap<>();

    /** Per loaded namespace, its conversation turns in order; guarded like {@link #tables}. */
    private final Map<String, ConversationTurns> turns = new ConcurrentHashMap<>();

    /** Per namespace, changes applied to its table; {@link #people} is valid for one version. */
    private final Map<String, AtomicLong> versions = new ConcurrentHashMap<>();

    private final Map<String, People> people = new ConcurrentHashMap<>();

    /**
     * Per loaded namespace, the users and (user, session) pairs its table holds: a new memory of a
     * known user in a session they already spoke in, with no names in its text and no alias tag,
     * leaves the people's names as they were, so the next recall does not learn them again. Guarded
     * like {@link #tables}.
     */
    private final Map<String, Set<String>> speakers = new ConcurrentHashMap<>();

    /**
     * Per loaded namespace, the ids of its memories with turn windows (long conversation turns, a
     * few of the table): recall scores them apart, and finding them by a pass over a table of
     * 10,000 memories cost more than scoring them. Guarded like {@link #tables}.
     */
    private final Map<String, Set<String>> windowed = new ConcurrentHashMap<>();

    /** When each loaded namespace was last used ({@link System#nanoTime}); guarded like tables. */
    private final Map<String, Long> lastUsed = new ConcurrentHashMap<>();

    /** Estimated bytes of each loaded namespace's table ({@link #bytes(Entry)}). */
    private final Map<String, AtomicLong> residentBytes = new ConcurrentHashMap<>();

    private final long maxResidentBytes;
    private final MemoryStats stats;

    /**
     * @param maxResidentBytes the estimated size the loaded tables may reach together before the
     *     least recently used ones are dropped (they load again from the store when next used); 0
     *     for no bound
     */
    MemoryIndexes(
            MemoryRepository repository,
            LexicalIndex lexical,
            long maxResidentBytes,
            MemoryStats stats) {
        this.repository = repository;
        this.lexical = lexical;
        this.maxResidentBytes = maxResidentBytes;
        this.stats = stats;
    }

    /**
     * What a table entry costs in heap, estimated: the vector's floats, the text about three times
     * (the memory's own, its normalised copy, what its names and facets keep) and the objects
     * around them. Calibrated against heap measured after a full GC (docs/operations.md, capacity).
     */
    static long bytes(Entry e) {
        long windows = 0;
        for (float[] w : e.windows()) {
            windows += 4L * w.length + 16;
        }
        return 4L * e.vector().length
                + windows
                + 3L * e.memory().content().length()
                + ENTRY_OVERHEAD;
    }

    /** The objects of an entry besides its vector and text (records, map node, tags, times). */
    static final long ENTRY_OVERHEAD = 900;

    /** How many namespaces have their table in memory, and their estimated bytes together. */
    long[] resident() {
        long total = 0;
        for (AtomicLong b : residentBytes.values()) {
            total += b.get();
        }
        return new long[] {tables.size(), total};
    }

    /**
     * Drops the tables of the least recently used namespaces, never {@code keep}, until the loaded
     * ones fit {@link #maxResidentBytes}. Under the tables' lock.
     */
    private void evictBeyondBound(String keep) {
        if (maxResidentBytes <= 0) {
            return;
        }
        long total = resident()[1];
        while (total > maxResidentBytes && tables.size() > 1) {
            String oldest = null;
            long oldestTime = Long.MAX_VALUE;
            for (Map.Entry<String, Long> used : lastUsed.entrySet()) {
                if (!used.getKey().equals(keep) && used.getValue() < oldestTime) {
                    oldest = used.getKey();
                    oldestTime = used.getValue();
                }
            }
            if (oldest == null) {
                return;
            }
            AtomicLong freed = residentBytes.remove(oldest);
            total -= freed == null ? 0 : freed.get();
            unload(oldest);
            stats.evictions.incrementAndGet();
        }
    }

    /** Forgets a namespace's table; the next use loads it from the store. Under the lock. */
    private void unload(String namespace) {
        tables.remove(namespace);
        turns.remove(namespace);
        windowed.remove(namespace);
        speakers.remove(namespace);
        people.remove(namespace);
        lastUsed.remove(namespace);
        residentBytes.remove(namespace);
        version(namespace).incrementAndGet();
    }

    LexicalIndex lexical() {
        return lexical;
    }

    /**
     * The namespace's table if this server holds it in memory, without loading it or counting as a
     * use (what only reads in passing, as maintenance, leaves residency as the requests made it).
     */
    Optional<Map<String, Entry>> loaded(String namespace) {
        return Optional.ofNullable(tables.get(namespace));
    }

    /** The live memories of a namespace, loading them on first use. */
    Map<String, Entry> table(String namespace) {
        Map<String, Entry> table = tables.get(namespace);
        if (table != null) {
            lastUsed.put(namespace, System.nanoTime());
            return table;
        }
        // Loading and applying a change to this namespace exclude each other: a change applied
        // before the table is marked loaded is in the rows the load reads.
        synchronized (tables) {
            table = tables.get(namespace);
            if (table == null) {
                long started = System.nanoTime();
                List<Memory> rows = new ArrayList<>();
                List<float[]> vectors = new ArrayList<>();
                List<List<float[]>> windows = new ArrayList<>();
                repository.forEachLive(
                        namespace,
                        (m, v, w) -> {
                            rows.add(m);
                            vectors.add(v);
                            windows.add(w);
                        });
                long read = System.nanoTime();
                // reading each text for names, times and facets is most of a load: on every core
                Entry[] entries = new Entry[rows.size()];
                java.util.stream.IntStream.range(0, entries.length)
                        .parallel()
                        .forEach(
                                i ->
                                        entries[i] =
                                                new Entry(
                                                        rows.get(i),
                                                        vectors.get(i),
                                                        windows.get(i)));
                Map<String, Entry> loaded = new ConcurrentHashMap<>(entries.length * 2);
                ConversationTurns said = new ConversationTurns();
                Set<String> speaking = ConcurrentHashMap.newKeySet();
                Set<String> withWindows = ConcurrentHashMap.newKeySet();
                for (Entry e : entries) {
                    loaded.put(e.memory().id(), e);
                    said.put(e.memory());
                    newSpeaker(speaking, e.memory());
                    if (!e.windows().isEmpty()) {
                        withWindows.add(e.memory().id());
                    }
                }
                long built = System.nanoTime();
                if (built - started > LOG_LOADS_OVER_NANOS) {
                    LOG.log(
                            System.Logger.Level.INFO,
                            "loaded the memory table of {0}: {1} memories in {2} ms (store {3}"
                                    + " ms, reading the texts {4} ms)",
                            namespace,
                            entries.length,
                            (built - started) / 1_000_000,
                            (read - started) / 1_000_000,
                            (built - read) / 1_000_000);
                }
                turns.put(namespace, said);
                windowed.put(namespace, withWindows);
                speakers.put(namespace, speaking);
                version(namespace).incrementAndGet();
                long size = 0;
                for (Entry e : loaded.values()) {
                    size += bytes(e);
                }
                residentBytes.put(namespace, new AtomicLong(size));
                lastUsed.put(namespace, System.nanoTime());
                tables.put(namespace, loaded);
                stats.tableLoads.incrementAndGet();
                evictBeyondBound(namespace);
                table = loaded;
            }
            return table;
        }
    }

    /**
     * The ids of the loaded namespace's memories that have turn windows, kept as its {@link #table}
     * changes; empty when it is not loaded (the caller loads it first).
     */
    Set<String> windowed(String namespace) {
        return windowed.getOrDefault(namespace, Set.of());
    }

    /** The conversation turns of a namespace in order, loading the namespace on first use. */
    ConversationTurns turns(String namespace) {
        table(namespace);
        ConversationTurns said = turns.get(namespace);
        return said != null ? said : new ConversationTurns(); // deleted since
    }

    /**
     * The names of the namespace's people ({@link PersonNames}), learned again from its table after
     * a change that can alter them (see {@link #speakers}): a pass over the table, on the first
     * recall after such a write.
     */
    PersonNames people(String namespace) {
        Map<String, Entry> table = table(namespace);
        long version = version(namespace).get();
        People known = people.get(namespace);
        if (known != null && known.version() == version) {
            return known.names();
        }
        PersonNames.Builder builder = new PersonNames.Builder();
        for (Entry e : table.values()) {
            Memory m = e.memory();
            builder.add(m, ConversationTurns.isTurn(m) ? m.scope().sessionName() : "", e.names());
        }
        PersonNames names = builder.build();
        // a change applied while this was built made a newer version: the next recall learns again
        people.put(namespace, new People(version, names));
        return names;
    }

    /** Records {@code m}'s user and (user, session): whether either is new. */
    private static boolean newSpeaker(Set<String> speaking, Memory m) {
        String user = m.scope().userId();
        boolean newUser = speaking.add(user);
        boolean newInSession =
                ConversationTurns.isTurn(m)
                        && speaking.add(user + "\u0000" + m.scope().sessionName());
        return newUser || newInSession;
    }

    /** Whether a memory's text or tags give a name ({@link PersonNames} would learn from it). */
    private static boolean namesSomeone(Entry e) {
        return !e.names().isEmpty() || !PersonNames.declared(e.memory()).isEmpty();
    }

    private AtomicLong version(String namespace) {
        return versions.computeIfAbsent(namespace, ns -> new AtomicLong());
    }

    Optional<Entry> entry(String namespace, String id) {
        return Optional.ofNullable(table(namespace).get(id));
    }

    /** Updates cached recall bookkeeping without touching Lucene. */
    void recalled(String namespace, Map<String, RecallTally> recalls) {
        Map<String, Entry> table = tables.get(namespace);
        if (table == null) {
            return;
        }
        recalls.forEach(
                (id, tally) ->
                        table.computeIfPresent(
                                id,
                                (k, e) ->
                                        e.with(e.memory().recalled(tally.times(), tally.last()))));
    }

    // ---- derived index ------------------------------------------------------------------

    @Override
    public String name() {
        return "memories";
    }

    @Override
    public long lastAppliedSeq() {
        return lexical.lastAppliedSeq();
    }

    @Override
    public void apply(Change change) {
        String ns = change.namespace();
        if (change.kind() == Change.Kind.NAMESPACE && change.op() == Change.Op.DELETE) {
            lexical.deleteNamespace(ns);
            synchronized (tables) {
                unload(ns);
            }
            return;
        }
        if (change.kind() == Change.Kind.USER && change.op() == Change.Op.DELETE) {
            // a forgotten user's memories were deleted by the changes before this one: no segment
            // file may keep their words
            lexical.purgeDeleted(ns);
            return;
        }
        if (change.kind() != Change.Kind.MEMORY) {
            return;
        }
        Optional<Memory> found = repository.find(ns, change.entityId());
        synchronized (tables) {
            Map<String, Entry> table = tables.get(ns);
            if (found.isEmpty() || found.get().deleted()) {
                lexical.deleteDocument(ns, change.entityId());
                if (table != null) {
                    Entry removed = table.remove(change.entityId());
                    if (removed != null) {
                        residentBytes.get(ns).addAndGet(-bytes(removed));
                    }
                    turns.get(ns).remove(change.entityId());
                    windowed.get(ns).remove(change.entityId());
                    // who speaks where, as the table now has it (a deletion is rare)
                    Set<String> speaking = ConcurrentHashMap.newKeySet();
                    table.values().forEach(e -> newSpeaker(speaking, e.memory()));
                    speakers.put(ns, speaking);
                }
                version(ns).incrementAndGet();
                return;
            }
            Memory memory = found.get();
            Entry old = table == null ? null : table.get(memory.id());
            if (table != null) {
                float[] vector = repository.embedding(ns, memory.id());
                List<float[]> windows =
                        ConversationTurns.isTurn(memory)
                                ? repository.windows(ns, memory.id()).orElse(List.of())
                                : List.of();
                Entry entry = new Entry(memory, vector, windows);
                if (windows.isEmpty()) {
                    windowed.get(ns).remove(memory.id());
                } else {
                    windowed.get(ns).add(memory.id());
                }
                table.put(memory.id(), entry);
                residentBytes.get(ns).addAndGet(bytes(entry) - (old == null ? 0 : bytes(old)));
                turns.get(ns).put(memory);
                boolean fresh = newSpeaker(speakers.get(ns), memory);
                if (old != null || fresh || namesSomeone(entry)) {
                    version(ns).incrementAndGet();
                }
            } else {
                version(ns).incrementAndGet();
            }
            // Re-adding an unchanged text would only leave a deleted copy in BM25's statistics.
            if (old == null || !old.memory().content().equals(memory.content())) {
                lexical.upsertDocument(
                        ns,
                        memory.id(),
                        List.of(
                                new IndexedChunk(
                                        memory.id(), "", List.of(), matching(memory.content()))));
            }
        }
    }

    @Override
    public void applied(long seq) {
        lexical.setLastAppliedSeq(seq);
    }

    @Override
    public void commit() {
        lexical.commit();
    }

    @Override
    public void reset() {
        lexical.deleteAll();
        synchronized (tables) {
            tables.clear();
            turns.clear();
            windowed.clear();
            speakers.clear();
            people.clear();
            lastUsed.clear();
            residentBytes.clear();
            versions.values().forEach(AtomicLong::incrementAndGet);
        }
    }

    @Override
    public void close() {
        lexical.close();
    }
}
