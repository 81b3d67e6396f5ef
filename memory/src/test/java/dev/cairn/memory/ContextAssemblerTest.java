package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.embeddings.TokenCounter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ContextAssemblerTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final Scope SCOPE = Scope.of("acme", "u1", "");
    private final SimpleTokenCounter counter = new SimpleTokenCounter();
    private final ContextAssembler assembler = ContextAssembler.create(counter);
    private final MemoryLifecycle lifecycle = MemoryLifecycle.defaults();

    private ScoredMemory scored(String id, MemoryType type, String content, double score) {
        Memory m = lifecycle.create(id, NewMemory.of(SCOPE, type, content), "", T0);
        return new ScoredMemory(m, score, new ScoreComponents(0.5, 0.5, 1, 0.8, 0));
    }

    @Test
    void composesLayersInPriorityOrderWithTypeDateAndIdMarkers() {
        AssembledContext c =
                assembler.assemble(
                        List.of(
                                scored("mem_t", MemoryType.TASK, "Rotate the certs", 0.9),
                                scored("mem_p", MemoryType.PROCEDURE, "Run make deploy", 0.5),
                                scored("mem_b", MemoryType.PREFERENCE, "Prefers pnpm", 0.4),
                                scored(
                                        "mem_a",
                                        MemoryType.FACT,
                                        "Billing runs\non Postgres",
                                        0.4)));
        assertThat(c.text())
                .isEqualTo(
                        "## Episodic\n"
                                + "- [FACT 2026-03-01 mem_a] Billing runs on Postgres\n"
                                + "- [PREFERENCE 2026-03-01 mem_b] Prefers pnpm\n"
                                + "\n## Procedural\n"
                                + "- [PROCEDURE 2026-03-01 mem_p] Run make deploy\n"
                                + "\n## Proactive\n"
                                + "- [TASK 2026-03-01 mem_t] Rotate the certs");
        assertThat(c.layers().keySet())
                .containsExactly(Layer.EPISODIC, Layer.PROCEDURAL, Layer.PROACTIVE);
        assertThat(c.includedIds()).containsExactly("mem_a", "mem_b", "mem_p", "mem_t");
        assertThat(c.tokens()).isEqualTo(counter.count(c.text()));
    }

    @Test
    void truncatesLongEntriesAndOmitsWhatDoesNotFit() {
        String longText = "word ".repeat(500);
        ContextAssembler small =
                ContextAssembler.create(counter, new ContextAssembler.Config(20, 5));
        AssembledContext c =
                small.assemble(
                        List.of(
                                scored("m1", MemoryType.FACT, longText, 0.9),
                                scored("m2", MemoryType.FACT, longText, 0.8)),
                        45);
        assertThat(c.truncated()).contains("m1");
        assertThat(c.tokens()).isLessThanOrEqualTo(45);
        assertThat(c.text())
                .endsWith(" …")
                .doesNotContain(
                        "word word word word word word word word word word word word word word word word word word word word word");
        AssembledContext none =
                assembler.assemble(List.of(scored("m1", MemoryType.FACT, "abc", 1)), 3);
        assertThat(none.text()).isEmpty();
        assertThat(none.omitted()).containsExactly("m1");
        assertThatThrownBy(() -> assembler.assemble(List.of(), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }

    @Test
    void contextNeverExceedsItsBudgetOverRandomInputs() {
        neverExceedsBudget(counter, 20260301L);
    }

    @Test
    void contextNeverExceedsItsBudgetWithBertsTokenizer() {
        // production's counter: declared additive, so the assembler trusts its running sum; the
        // property below recounts every block whole and must find the same number
        try (EmbeddingModel bge = EmbeddingModels.bgeSmallEnV15()) {
            TokenCounter wordPiece = bge.tokenCounter();
            assertThat(wordPiece.additiveAtWhitespace()).isTrue();
            neverExceedsBudget(TokenCounter.caching(wordPiece, 1000), 20261122L);
        }
    }

    @Test
    void anEntryCutToTheRestOfTheBudgetIsCutOnceToTheLongestThatFits() {
        // issue 39's long turns: the entry that meets the budget used to be found by a binary
        // search of cuts, each encoding its whole text two or three times
        try (EmbeddingModel bge = EmbeddingModels.bgeSmallEnV15()) {
            TokenCounter wordPiece = bge.tokenCounter();
            int[] cuts = new int[1];
            TokenCounter counting =
                    new TokenCounter() {
                        @Override
                        public int count(String text) {
                            return wordPiece.count(text);
                        }

                        @Override
                        public String truncate(String text, int maxTokens) {
                            cuts[0]++;
                            return wordPiece.truncate(text, maxTokens);
                        }

                        @Override
                        public boolean additiveAtWhitespace() {
                            return wordPiece.additiveAtWhitespace();
                        }
                    };
            String[] words = {"river", "stone", "garden", "window", "letter", "autumn", "bridge"};
            StringBuilder turn = new StringBuilder();
            for (int i = 0; i < 220; i++) {
                turn.append(words[i % words.length]).append(' ');
            }
            ContextAssembler assembler =
                    ContextAssembler.create(TokenCounter.caching(counting, 100));
            List<ScoredMemory> two =
                    List.of(
                            scored("m1", MemoryType.FACT, "Prefers tea in the morning", 0.9),
                            scored("m2", MemoryType.FACT, turn.toString(), 0.8));

            AssembledContext c = assembler.assemble(two, 90);

            assertThat(c.truncated()).containsExactly("m2");
            assertThat(c.tokens()).isLessThanOrEqualTo(90).isEqualTo(wordPiece.count(c.text()));
            // one word more before the ellipsis would not fit: the cut is the longest
            String text = c.text();
            assertThat(text).endsWith(" …");
            String withoutEllipsis = text.substring(0, text.length() - " …".length());
            String line = withoutEllipsis.substring(withoutEllipsis.lastIndexOf('\n') + 1);
            int wordsKept = line.substring(line.indexOf("] ") + 2).split(" ").length;
            String oneMore = withoutEllipsis + " " + words[wordsKept % words.length] + " …";
            assertThat(wordsKept).isGreaterThan(40);
            assertThat(wordPiece.count(oneMore)).isGreaterThan(90);
            assertThat(cuts[0]).as("cuts made").isLessThanOrEqualTo(1);

            assembler.assemble(two, 90);
            assertThat(cuts[0]).as("cuts made by the same recall again").isLessThanOrEqualTo(1);
        }
    }

    @Test
    void contextNeverExceedsItsBudgetWithANonAdditiveCounter() {
        // one token per started block of 7 characters of the whole text: joining texts changes
        // the count, so the additive first pass must fall back to counting whole blocks
        TokenCounter blocks =
                new TokenCounter() {
                    @Override
                    public int count(String text) {
                        return (text.length() + 6) / 7;
                    }

                    @Override
                    public String truncate(String text, int maxTokens) {
                        return text.substring(
                                0, Math.min(text.length(), Math.max(0, maxTokens * 7)));
                    }
                };
        neverExceedsBudget(blocks, 20261122L);
    }

    private void neverExceedsBudget(TokenCounter counter, long seed) {
        ContextAssembler assembler = ContextAssembler.create(counter);
        Random random = new Random(seed);
        MemoryType[] types = MemoryType.values();
        for (int round = 0; round < 300; round++) {
            int n = random.nextInt(30);
            List<ScoredMemory> input = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                input.add(
                        new ScoredMemory(
                                lifecycle.create(
                                        "m" + round + "_" + i,
                                        NewMemory.of(
                                                SCOPE,
                                                types[random.nextInt(types.length)],
                                                randomText(random)),
                                        "",
                                        T0.plus(Duration.ofDays(random.nextInt(400)))),
                                random.nextDouble(),
                                new ScoreComponents(0, 0, 0, 0, 0)));
            }
            int budget = random.nextBoolean() ? random.nextInt(40) : random.nextInt(5000);
            ContextAssembler a =
                    random.nextBoolean()
                            ? assembler
                            : ContextAssembler.create(
                                    counter,
                                    new ContextAssembler.Config(1 + random.nextInt(50), 1));
            AssembledContext c = a.assemble(input, budget);
            String why = "seed " + seed + " round " + round + " budget " + budget;
            assertThat(counter.count(c.text())).as(why).isLessThanOrEqualTo(budget);
            assertThat(c.tokens()).as(why).isEqualTo(counter.count(c.text()));
            assertThat(c.includedIds().size() + c.omitted().size()).as(why).isEqualTo(n);
            assertThat(c.includedIds()).as(why).doesNotHaveDuplicates();
        }
    }

    private static String randomText(Random random) {
        String[] words = {
            "deploy",
            "Postgres",
            "v2.3",
            "naïve",
            "→",
            "!!",
            "token",
            "a-b_c",
            "日本語",
            "x",
            "\n",
            "...",
            "émigré",
            "42",
            "don't"
        };
        int len = random.nextInt(10) == 0 ? 400 + random.nextInt(1200) : 1 + random.nextInt(40);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < len; i++) {
            sb.append(words[random.nextInt(words.length)])
                    .append(random.nextInt(4) == 0 ? "" : " ");
        }
        String s = sb.toString();
        return s.isBlank() ? "x" : s;
    }
}
