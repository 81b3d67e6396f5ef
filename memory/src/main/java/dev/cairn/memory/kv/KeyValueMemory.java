package dev.cairn.memory.kv;

import dev.cairn.memory.internal.Guards;
import dev.cairn.memory.safety.WriteGuard;
import dev.cairn.memory.safety.WriteTarget;
import dev.cairn.memory.search.HybridTextIndex;
import dev.cairn.memory.search.TextEntry;
import dev.cairn.memory.search.TextHit;
import dev.cairn.memory.service.WriteBlockedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The key/value memory of Orloj's provider and the {@code memory.*} tools: values pass {@link
 * WriteGuard} as memories (BLOCK refuses the write, FLAG stores it readable by key but never
 * searched) and are secret-redacted; search is hybrid over {@code key + " " + value}; {@link
 * #ingest} chunks a document into {@code {source}/chunk-NNNN} entries. Thread-safe.
 */
public final class KeyValueMemory {

    /** Default chunk size of {@link #ingest}, in characters. */
    public static final int DEFAULT_CHUNK_SIZE = 1000;

    /** Default overlap between consecutive chunks of {@link #ingest}, in characters. */
    public static final int DEFAULT_CHUNK_OVERLAP = 200;

    /** Most entries a list or search returns. */
    public static final int MAX_LIMIT = 1000;

    private final KeyValueRepository repository;
    private final WriteGuard guard;
    private final HybridTextIndex index;
    private final Function<String, String> generation;

    private KeyValueMemory(
            KeyValueRepository repository,
            WriteGuard guard,
            HybridTextIndex index,
            Function<String, String> generation) {
        this.repository = Objects.requireNonNull(repository, "repository");
        this.guard = Objects.requireNonNull(guard, "guard");
        this.index = Objects.requireNonNull(index, "index");
        this.generation = Objects.requireNonNull(generation, "generation");
    }

    /**
     * The standard guard; the caller owns {@code index}.
     *
     * @param generation a namespace's current incarnation (see {@link HybridTextIndex#search})
     */
    public static KeyValueMemory create(
            KeyValueRepository repository,
            HybridTextIndex index,
            Function<String, String> generation) {
        return new KeyValueMemory(repository, WriteGuard.standard(), index, generation);
    }

    /**
     * Stores a value.
     *
     * @throws WriteBlockedException when write safety blocks it
     */
    public KeyValueEntry put(String namespace, String key, String value) {
        KeyValueEntry.requireKey(key);
        WriteGuard.Guarded guarded = Guards.requireAllowed(guard.apply(value, WriteTarget.MEMORY));
        KeyValueEntry entry =
                repository.put(namespace, key, guarded.text(), guarded.storeDisabled());
        if (entry.flagged()) {
            index.remove(namespace, List.of(key));
        } else {
            index.upsert(namespace, List.of(entry(entry)));
        }
        return entry;
    }

    public Optional<KeyValueEntry> get(String namespace, String key) {
        return repository.get(namespace, KeyValueEntry.requireKey(key));
    }

    public List<KeyValueEntry> list(String namespace, String prefix, int limit) {
        return repository.list(namespace, prefix, checkLimit(limit));
    }

    public boolean delete(String namespace, String key) {
        boolean deleted = repository.delete(namespace, key);
        index.remove(namespace, List.of(key));
        return deleted;
    }

    /** Hybrid search over unflagged entries, best first. */
    public List<KeyValueHit> search(String namespace, String query, int limit) {
        List<TextHit> hits =
                index.search(
                        namespace,
                        generation.apply(namespace),
                        query,
                        checkLimit(limit),
                        () ->
                                repository.searchable(namespace).stream()
                                        .map(KeyValueMemory::entry)
                                        .toList());
        List<KeyValueHit> out = new ArrayList<>();
        for (TextHit hit : hits) {
            repository
                    .get(namespace, hit.id())
                    .filter(e -> !e.flagged())
                    .ifPresent(e -> out.add(new KeyValueHit(e.key(), e.value(), hit.score())));
        }
        return List.copyOf(out);
    }

    /**
     * Chunks {@code text} into windows of {@code size} characters overlapping by {@code overlap}
     * and stores them as {@code source/chunk-0000}, {@code source/chunk-0001}, ...
     *
     * @return the keys written, in order
     */
    public List<String> ingest(
            String namespace, String source, String text, int size, int overlap) {
        if (source == null || source.isBlank()) {
            throw new IllegalArgumentException("illegal source: blank, must name the document");
        }
        if (size < 1 || size > 100_000) {
            throw new IllegalArgumentException(
                    "illegal chunk size: " + size + ", must be in [1, 100000]");
        }
        if (overlap < 0 || overlap >= size) {
            throw new IllegalArgumentException(
                    "illegal overlap: " + overlap + ", must be in [0, size " + size + ")");
        }
        List<String> chunks = chunk(text, size, overlap);
        if (chunks.size() > 9999) {
            throw new IllegalArgumentException(
                    "illegal document: " + chunks.size() + " chunks, must be <= 9999");
        }
        // Check every chunk before writing any, so a blocked chunk writes nothing.
        for (String c : chunks) {
            Guards.requireAllowed(guard.apply(c, WriteTarget.MEMORY));
        }
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            String key = source.strip() + "/chunk-" + String.format("%04d", i);
            put(namespace, key, chunks.get(i));
            keys.add(key);
        }
        return List.copyOf(keys);
    }

    static List<String> chunk(String text, int size, int overlap) {
        List<String> out = new ArrayList<>();
        if (text.isBlank()) {
            return out;
        }
        int step = size - overlap;
        for (int start = 0; start < text.length(); start += step) {
            int end = Math.min(text.length(), start + size);
            out.add(text.substring(start, end));
            if (end == text.length()) {
                break;
            }
        }
        return out;
    }

    private static TextEntry entry(KeyValueEntry e) {
        return new TextEntry(e.key(), e.key() + " " + e.value());
    }

    private static int checkLimit(int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "illegal limit: " + limit + ", must be in [1, " + MAX_LIMIT + "]");
        }
        return limit;
    }
}
