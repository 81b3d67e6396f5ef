package dev.cairn.embeddings;

/** Counts and truncates text in model tokens. Thread-safe. */
public interface TokenCounter {

    /** Number of tokens in {@code text}, without special tokens such as [CLS] and [SEP]. */
    int count(String text);

    /** The longest prefix of {@code text} that has at most {@code maxTokens} tokens. */
    String truncate(String text, int maxTokens);

    /**
     * Whether texts joined at whitespace count as the sum of their parts: {@code count(a + w + b)
     * == count(a) + count(b)} for any whitespace {@code w}. True for tokenizers that split on
     * whitespace before anything else (BERT's WordPiece); callers may then sum the counts of parts
     * they have counted before instead of counting the joined text again.
     */
    default boolean additiveAtWhitespace() {
        return false;
    }

    /**
     * {@code counter} remembering the counts of the {@code maxEntries} texts counted last, and as
     * many truncations, for callers that count and cut the same texts again and again (context
     * assembly).
     */
    static TokenCounter caching(TokenCounter counter, int maxEntries) {
        return new CachingTokenCounter(counter, maxEntries);
    }
}
