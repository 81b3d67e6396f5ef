package dev.cairn.memory;

import dev.cairn.embeddings.TokenCounter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test token counter with a real rule: a token is a maximal run of letters or digits, or any single
 * other non-whitespace code point. Thread-safe.
 */
public final class SimpleTokenCounter implements TokenCounter {

    private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+|[^\\s\\p{L}\\p{N}]");

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
        if (maxTokens <= 0) {
            return "";
        }
        Matcher m = TOKEN.matcher(text);
        int n = 0;
        while (m.find()) {
            if (++n == maxTokens) {
                return text.substring(0, m.end());
            }
        }
        return text;
    }
}
