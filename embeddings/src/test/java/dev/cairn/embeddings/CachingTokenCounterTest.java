package dev.cairn.embeddings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CachingTokenCounterTest {

    /** One token per whitespace-separated word; records what it was asked. */
    private static final class Words implements TokenCounter {
        final List<String> asked = new ArrayList<>();

        @Override
        public int count(String text) {
            asked.add("count " + text);
            return text.isBlank() ? 0 : text.strip().split("\\s+").length;
        }

        @Override
        public String truncate(String text, int maxTokens) {
            asked.add("truncate " + maxTokens + " " + text);
            String[] words = text.strip().split("\\s+");
            return String.join(" ", Arrays.copyOf(words, Math.min(words.length, maxTokens)));
        }
    }

    @Test
    void aTextCountedOrCutAgainIsAnsweredFromTheCache() {
        Words words = new Words();
        TokenCounter cached = TokenCounter.caching(words, 10);

        assertThat(cached.truncate("one two three four", 2)).isEqualTo("one two");
        assertThat(cached.truncate("one two three four", 2)).isEqualTo("one two");
        assertThat(cached.truncate("one two three four", 3)).isEqualTo("one two three");
        assertThat(cached.count("one two three four")).isEqualTo(4);
        assertThat(cached.count("one two three four")).isEqualTo(4);

        assertThat(words.asked)
                .containsExactly(
                        "truncate 2 one two three four",
                        "truncate 3 one two three four",
                        "count one two three four");
    }

    @Test
    void theLeastRecentlyUsedEntriesGoPastTheBound() {
        Words words = new Words();
        TokenCounter cached = TokenCounter.caching(words, 2);

        cached.truncate("a b c", 1);
        cached.truncate("d e f", 1);
        cached.truncate("a b c", 1); // used again: "d e f" is now the eldest
        cached.truncate("g h i", 1); // evicts "d e f"
        cached.truncate("a b c", 1);
        cached.truncate("d e f", 1);

        assertThat(words.asked)
                .containsExactly(
                        "truncate 1 a b c",
                        "truncate 1 d e f",
                        "truncate 1 g h i",
                        "truncate 1 d e f");
    }
}
