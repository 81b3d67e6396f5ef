package dev.cairn.embeddings;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Remembers the token counts and truncations of the most recently seen texts. Context assembly
 * counts the same memories on every recall (each entry's content and its prefix), and a tokenizer
 * call cost about 0.1 ms when this was written: at 25 memories that was most of a recall without
 * the query embedding. It also cuts every memory longer than an entry may be to the same length on
 * every recall, and a cut encodes the whole text two or three times: for long conversation turns
 * (100-250 words) that was most of a recall's time (docs/memory.md, "Long turns"). Thread-safe if
 * the wrapped counter is.
 */
final class CachingTokenCounter implements TokenCounter {

    private final TokenCounter counter;
    private final Map<String, Integer> counts;

    /** Truncations by length, then text; bounded like {@link #counts} together. */
    private final Map<Truncation, String> truncations;

    private record Truncation(int maxTokens, String text) {}

    CachingTokenCounter(TokenCounter counter, int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException(
                    "illegal maxEntries: " + maxEntries + ", must be >= 1");
        }
        this.counter = Objects.requireNonNull(counter, "counter");
        this.counts = lruOf(maxEntries);
        this.truncations = lruOf(maxEntries);
    }

    private static <K, V> Map<K, V> lruOf(int maxEntries) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > maxEntries;
            }
        };
    }

    @Override
    public int count(String text) {
        synchronized (counts) {
            Integer known = counts.get(text);
            if (known != null) {
                return known;
            }
        }
        int n = counter.count(text);
        synchronized (counts) {
            counts.put(text, n);
        }
        return n;
    }

    @Override
    public String truncate(String text, int maxTokens) {
        Truncation key = new Truncation(maxTokens, text);
        synchronized (truncations) {
            String known = truncations.get(key);
            if (known != null) {
                return known;
            }
        }
        String cut = counter.truncate(text, maxTokens);
        synchronized (truncations) {
            truncations.put(key, cut);
        }
        return cut;
    }

    @Override
    public boolean additiveAtWhitespace() {
        return counter.additiveAtWhitespace();
    }
}
