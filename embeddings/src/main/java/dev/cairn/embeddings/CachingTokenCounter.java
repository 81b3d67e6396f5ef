package dev.cairn.embeddings;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Remembers the token counts of the most recently counted texts. Context assembly counts the same
 * memories on every recall (each entry's content and its prefix), and a tokenizer call cost about
 * 0.1 ms when this was written: at 25 memories that was most of a recall without the query
 * embedding. Truncation is not cached (it is rare and its result is a string). Thread-safe if the
 * wrapped counter is.
 */
final class CachingTokenCounter implements TokenCounter {

    private final TokenCounter counter;
    private final Map<String, Integer> counts;

    CachingTokenCounter(TokenCounter counter, int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException(
                    "illegal maxEntries: " + maxEntries + ", must be >= 1");
        }
        this.counter = Objects.requireNonNull(counter, "counter");
        this.counts =
                new LinkedHashMap<>(16, 0.75f, true) {
                    @Override
                    protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
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
        return counter.truncate(text, maxTokens);
    }

    @Override
    public boolean additiveAtWhitespace() {
        return counter.additiveAtWhitespace();
    }
}
