package dev.cairn.embeddings.bert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.embeddings.TokenCounter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenCounterTest {

    private final TokenCounter counter = TestModels.bge().tokenCounter();

    @Test
    void countsWithoutSpecialTokens() {
        assertThat(counter.count("hello world")).isEqualTo(2);
        assertThat(counter.count("")).isZero();
        assertThat(counter.count("   \n\t")).isZero();
    }

    @Test
    void countsWordPiecesAsTheModelSeesThem() {
        long[] ids =
                ((HfTokenizer) counter).encodeForModel(List.of("tokenization of unbelievably"))[0];
        assertThat(counter.count("tokenization of unbelievably")).isEqualTo(ids.length - 2);
    }

    @Test
    void countsBeyondTheModelLimit() {
        assertThat(counter.count("word ".repeat(1000))).isEqualTo(1000);
    }

    @Test
    void truncatesToAPrefixWithinTheBudget() {
        long seed = 42L;
        Random random = new Random(seed);
        for (String text : VariedTexts.generate(80, seed)) {
            int max = random.nextInt(40);
            String prefix = counter.truncate(text, max);
            assertThat(text).as("seed %d, max %d", seed, max).startsWith(prefix);
            assertThat(counter.count(prefix))
                    .as("seed %d, max %d: %s", seed, max, prefix)
                    .isLessThanOrEqualTo(max);
            if (counter.count(text) <= max) {
                assertThat(prefix).isEqualTo(text);
            }
        }
    }

    @Test
    void truncatesPlainWordsToExactlyTheBudget() {
        String text = "alpha beta gamma delta epsilon zeta eta theta";
        assertThat(counter.truncate(text, 3)).isEqualTo("alpha beta gamma");
        assertThat(counter.truncate(text, 0)).isEmpty();
        assertThat(counter.truncate(text, 100)).isEqualTo(text);
    }

    @Test
    void truncatesNonLatinTextOnTokenBoundaries() {
        String text = "这是一个中文句子 🚀 and English";
        String prefix = counter.truncate(text, 4);
        assertThat(counter.count(prefix)).isEqualTo(4);
        assertThat(text).startsWith(prefix);
    }

    @Test
    void rejectsANegativeBudget() {
        assertThatThrownBy(() -> counter.truncate("x", -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("illegal maxTokens: -1, must be >= 0");
    }

    @Test
    void bertWordPieceIsAdditiveAtWhitespaceAndOtherPreTokenizersAreNot(@TempDir Path dir)
            throws IOException {
        assertThat(counter.additiveAtWhitespace()).isTrue();
        assertThat(counter.count("alpha beta\ngamma"))
                .isEqualTo(counter.count("alpha beta") + counter.count("gamma"));

        String json;
        try (InputStream in =
                getClass()
                        .getClassLoader()
                        .getResourceAsStream("all-minilm-l6-v2-tokenizer.json")) {
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Path other = dir.resolve("tokenizer.json");
        Files.writeString(other, json.replaceFirst("\"BertPreTokenizer\"", "\"WhitespaceSplit\""));
        try (HfTokenizer whitespaceSplit = HfTokenizer.fromFile(other, 512)) {
            assertThat(whitespaceSplit.additiveAtWhitespace()).isFalse();
            assertThat(whitespaceSplit.count("hello world")).isEqualTo(2);
        }
    }
}
