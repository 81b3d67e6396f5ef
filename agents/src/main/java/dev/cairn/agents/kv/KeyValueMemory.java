package dev.cairn.agents.kv;

import dev.cairn.agents.search.HybridTextIndex;
import dev.cairn.agents.search.TextEntry;
import dev.cairn.agents.search.TextHit;
import dev.cairn.agents.search.TextIndexFollower;
import dev.cairn.safety.SecretRedactor;
import dev.cairn.safety.WriteGuard;
import dev.cairn.safety.WriteSafety;
import dev.cairn.safety.WriteTarget;
import dev.cairn.store.Change;
import dev.cairn.store.ChangeLog;
import dev.cairn.store.Store;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The key/value memory of Orloj's provider and the {@code memory.*} tools: values are scanned by
 * {@link WriteGuard} as memories and secret-redacted; whatever the scanner finds (injection
 * phrasing, ANSI escapes, ...) marks the entry flagged instead of refusing it: a flagged entry is
 * readable by key and listed, but never searched (so never in a recall context or an extraction,
 * which read through search). Values are at most {@link #MAX_VALUE_BYTES}. Search is hybrid over
 * {@code key + " " + value}, scored on a 0..1 similarity scale ({@link TextHit#relevance()}), and
 * leaves out hits under {@link #RELEVANCE_FLOOR}; {@link #ingest} chunks a document into {@code
 * {source}/chunk-NNNN} entries. Thread-safe.
 */
public final class KeyValueMemory implements AutoCloseable {

    /** Default chunk size of {@link #ingest}, in characters. */
    public static final int DEFAULT_CHUNK_SIZE = 1000;

    /** Default overlap between consecutive chunks of {@link #ingest}, in characters. */
    public static final int DEFAULT_CHUNK_OVERLAP = 200;

    /** Most entries a search returns (and a limited list). */
    public static final int MAX_LIMIT = 1000;

    /** Largest value, in UTF-8 bytes: 1 MiB, well above typical tool output. */
    public static final int MAX_VALUE_BYTES = 1024 * 1024;

    /** Least relevance (0..1) a search hit needs ({@link TextHit#RELEVANCE_FLOOR}). */
    public static final double RELEVANCE_FLOOR = TextHit.RELEVANCE_FLOOR;

    private final KeyValueRepository repository;
    private final WriteGuard guard;
    private final SecretRedactor redactor = SecretRedactor.standard();
    private final HybridTextIndex index;
    private final ChangeLog changeLog;
    private final TextIndexFollower follower;

    private KeyValueMemory(Store store, WriteGuard guard, HybridTextIndex index) {
        this.repository = KeyValueRepository.sql(store.sql());
        this.guard = Objects.requireNonNull(guard, "guard");
        this.index = Objects.requireNonNull(index, "index");
        this.changeLog = store.changeLog();
        this.follower =
                new TextIndexFollower(
                        "key-value",
                        Change.Kind.KEY_VALUE,
                        index,
                        this::searchable,
                        store::lastChangeSeq);
    }

    /**
     * Key/value memory in {@code store} with the standard guard, searched through {@code index}
     * (the caller owns it), which follows the store's change log until {@link #close()}.
     */
    public static KeyValueMemory open(Store store, HybridTextIndex index) {
        // The scanner's own size limit must not decide (it would flag every large value): size is
        // checked here, 413 past MAX_VALUE_BYTES.
        WriteGuard guard =
                WriteGuard.create(
                        WriteSafety.create(
                                new WriteSafety.Config(
                                        MAX_VALUE_BYTES,
                                        WriteSafety.DEFAULT_MAX_PROPOSAL_BYTES,
                                        WriteSafety.DEFAULT_MAX_MESSAGE_BYTES)),
                        SecretRedactor.standard());
        KeyValueMemory memory = new KeyValueMemory(store, guard, index);
        store.changeLog().follow(memory.follower);
        return memory;
    }

    private Map<String, TextEntry> searchable(String namespace, Collection<String> keys) {
        Map<String, TextEntry> out = new HashMap<>();
        for (String key : keys) {
            repository.get(namespace, key).ifPresent(e -> out.put(e.key(), entry(e)));
        }
        return out;
    }

    @Override
    public void close() {
        changeLog.unfollow(follower);
    }

    /**
     * Stores a value, secret-redacted, flagged when the write-path scanner found anything in it.
     *
     * @throws ValueTooLargeException when the value exceeds {@link #MAX_VALUE_BYTES} (nothing is
     *     stored)
     */
    public KeyValueEntry put(String namespace, String key, String value) {
        KeyValueEntry.requireKey(key);
        guard.identifier(key, "key");
        Objects.requireNonNull(value, "value");
        int bytes = value.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_VALUE_BYTES) {
            throw new ValueTooLargeException(
                    "value is " + bytes + " bytes, must be <= " + MAX_VALUE_BYTES);
        }
        WriteGuard.Guarded guarded = guard.apply(value, WriteTarget.MEMORY);
        boolean flagged = !guarded.safety().rules().isEmpty() || guarded.storeDisabled();
        // A blocked text is not redacted by the guard (it expects it dropped): redact it here.
        String text = guarded.blocked() ? redactor.redact(value).text() : guarded.text();
        KeyValueEntry entry = repository.put(namespace, key, text, flagged);
        changeLog.catchUp();
        return entry;
    }

    public Optional<KeyValueEntry> get(String namespace, String key) {
        return repository.get(namespace, KeyValueEntry.requireKey(key));
    }

    public List<KeyValueEntry> list(String namespace, String prefix, int limit) {
        return repository.list(namespace, prefix, checkLimit(limit));
    }

    /** Every entry whose key starts with {@code prefix} ("" for all), by key, flagged included. */
    public List<KeyValueEntry> listAll(String namespace, String prefix) {
        return repository.list(namespace, prefix, Integer.MAX_VALUE);
    }

    public boolean delete(String namespace, String key) {
        boolean deleted = repository.delete(namespace, key);
        changeLog.catchUp();
        return deleted;
    }

    /**
     * Hybrid search, best first by relevance (0..1, the score of each hit), hits under {@link
     * #RELEVANCE_FLOOR} left out. Flagged entries are never answered, but they are searched: the
     * answer counts the matches it withheld, so an agent knows its notes were held back for review.
     */
    public KeyValueSearch search(String namespace, String query, int limit) {
        checkLimit(limit);
        // another server may have written, or deleted and re-created the namespace, since
        changeLog.catchUpIfBehind();
        // room for every flagged entry, so withheld matches never push out an answerable one
        int candidates = limit + repository.flaggedCount(namespace);
        List<TextHit> hits =
                index.search(
                        namespace,
                        query,
                        candidates,
                        () ->
                                repository.searchable(namespace).stream()
                                        .map(KeyValueMemory::entry)
                                        .toList());
        List<KeyValueHit> out = new ArrayList<>();
        int withheld = 0;
        for (TextHit hit : hits) {
            if (hit.relevance() < RELEVANCE_FLOOR) {
                continue;
            }
            Optional<KeyValueEntry> entry = repository.get(namespace, hit.id());
            if (entry.isPresent() && entry.get().flagged()) {
                withheld++;
            } else if (entry.isPresent() && out.size() < limit) {
                KeyValueEntry e = entry.get();
                out.add(new KeyValueHit(e.key(), e.value(), hit.relevance()));
            }
        }
        out.sort(Comparator.comparingDouble(KeyValueHit::score).reversed());
        return new KeyValueSearch(out, withheld);
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
