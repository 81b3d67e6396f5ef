package dev.cairn.embeddings;

/** Counts and truncates text in model tokens. Thread-safe. */
public interface TokenCounter {

    /** Number of tokens in {@code text}, without special tokens such as [CLS] and [SEP]. */
    int count(String text);

    /** The longest prefix of {@code text} that has at most {@code maxTokens} tokens. */
    String truncate(String text, int maxTokens);

    /**
     * {@code counter} remembering the counts of the {@code maxEntries} texts counted last, for
     * callers that count the same texts again and again (context assembly).
     */
    static TokenCounter caching(TokenCounter counter, int maxEntries) {
        return new CachingTokenCounter(counter, maxEntries);
    }
}
