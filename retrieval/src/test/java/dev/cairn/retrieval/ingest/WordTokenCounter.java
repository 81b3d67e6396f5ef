package dev.cairn.retrieval.ingest;

import dev.cairn.embeddings.TokenCounter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real, simple tokenizer for tests: a token is a run of letters and digits or one other non-space
 * character (so "don't." is 4 tokens). Thread-safe.
 */
public final class WordTokenCounter implements TokenCounter {

    private static final Pattern TOKEN =
            Pattern.compile(
                    "[\\p{L}\\p{N}_]+|[^\\p{L}\\p{N}_\\s]", Pattern.UNICODE_CHARACTER_CLASS);

    @Override
    public int count(String text) {
        Matcher m = TOKEN.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Override
    public String truncate(String text, int maxTokens) {
        Matcher m = TOKEN.matcher(text);
        int n = 0;
        int end = 0;
        while (n < maxTokens && m.find()) {
            n++;
            end = m.end();
        }
        return text.substring(0, end);
    }
}
