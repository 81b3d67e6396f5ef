package dev.cairn.retrieval.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.retrieval.store.ChunkDraft;
import dev.cairn.retrieval.store.DocumentFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HeadingAwareChunkerTest {

    private static final long SEED = 424242L;
    private static final WordTokenCounter COUNTER = new WordTokenCounter();

    private static final String RUNBOOK =
            """
            Intro before any heading.

            # Rebuild the index

            Why we rebuild.

            ## Steps

            Stop the workers.

            ```bash
            # this is a comment, not a heading
            kubectl scale deploy/worker --replicas=0
            ```

            Run the job.

            ### Verify

            Check the counts.

            ## Rollback

            Restore the snapshot.
            """;

    private static Chunker chunker(int max, int overlap) {
        return Chunker.headingAware(COUNTER, new ChunkingConfig(max, overlap));
    }

    private static ParsedDocument markdown(String body) {
        return ParsedDocument.plain("doc", "Doc", DocumentFormat.MARKDOWN, body);
    }

    @Test
    void tracksHeadingPathsAndIgnoresHeadingsInCodeFences() {
        List<ChunkDraft> chunks = chunker(256, 32).chunk(markdown(RUNBOOK));

        assertThat(chunks)
                .extracting(ChunkDraft::headingPath)
                .containsExactly(
                        List.of(),
                        List.of("Rebuild the index"),
                        List.of("Rebuild the index", "Steps"),
                        List.of("Rebuild the index", "Steps", "Verify"),
                        List.of("Rebuild the index", "Rollback"));
        assertThat(chunks.get(2).text())
                .contains("# this is a comment, not a heading")
                .contains("Run the job.");
        assertThat(chunks).extracting(ChunkDraft::ordinal).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void plainTextHasNoHeadings() {
        List<ChunkDraft> chunks =
                chunker(256, 32)
                        .chunk(
                                ParsedDocument.plain(
                                        "d", "D", DocumentFormat.TEXT, "# not a heading\n\ntext"));

        assertThat(chunks)
                .singleElement()
                .satisfies(
                        c -> {
                            assertThat(c.headingPath()).isEmpty();
                            assertThat(c.text()).isEqualTo("# not a heading\n\ntext");
                        });
    }

    @Test
    void noChunkExceedsTheBudgetAndAllTextIsCovered() {
        Random random = new Random(SEED);
        for (int trial = 0; trial < 50; trial++) {
            String body = randomMarkdown(random);
            int max = 16 + random.nextInt(80);
            int overlap = random.nextInt(max / 2 + 1);

            List<ChunkDraft> chunks = chunker(max, overlap).chunk(markdown(body));

            String context =
                    "seed " + SEED + " trial " + trial + " max " + max + " overlap " + overlap;
            assertThat(chunks)
                    .as(context)
                    .allSatisfy(
                            c -> {
                                assertThat(c.tokenCount()).isLessThanOrEqualTo(max);
                                assertThat(c.tokenCount()).isEqualTo(COUNTER.count(c.text()));
                            });
            Set<String> covered = new HashSet<>();
            for (ChunkDraft c : chunks) {
                covered.addAll(words(c.text()));
                covered.addAll(c.headingPath().stream().flatMap(h -> words(h).stream()).toList());
            }
            // Every word except those of headings over empty sections (they have no content).
            List<String> expected =
                    words(body).stream().filter(w -> !w.startsWith("heading")).toList();
            assertThat(covered).as(context).containsAll(expected);
        }
    }

    @Test
    void longSectionsOverlapByAboutTheOverlapBudget() {
        StringBuilder body = new StringBuilder("# Long\n\n");
        for (int i = 0; i < 60; i++) {
            body.append("Sentence number w").append(i).append(" has six words. ");
        }
        List<ChunkDraft> chunks = chunker(64, 16).chunk(markdown(body.toString()));

        assertThat(chunks).hasSizeGreaterThan(3);
        for (int i = 1; i < chunks.size(); i++) {
            List<String> prev = words(chunks.get(i - 1).text());
            List<String> next = words(chunks.get(i).text());
            assertThat(COUNTER.count(String.join(" ", commonPrefixSuffix(prev, next))))
                    .as("chunk %d starts with the last tokens of chunk %d", i, i - 1)
                    .isBetween(8, 16);
        }
    }

    @Test
    void overlapStaysInsideOneSection() {
        List<ChunkDraft> chunks =
                chunker(16, 8).chunk(markdown("# A\n\nalpha beta gamma.\n\n# B\n\ndelta epsilon."));

        assertThat(chunks)
                .extracting(ChunkDraft::text)
                .containsExactly("alpha beta gamma.", "delta epsilon.");
    }

    @Test
    void splitsAnOversizedSentenceByTokens() {
        String giant = String.join(" ", java.util.Collections.nCopies(100, "word"));

        List<ChunkDraft> chunks = chunker(20, 0).chunk(markdown(giant));

        assertThat(chunks).hasSize(5).allSatisfy(c -> assertThat(c.tokenCount()).isEqualTo(20));
    }

    @Test
    void isDeterministic() {
        Random random = new Random(SEED + 1);
        String body = randomMarkdown(random);

        assertThat(chunker(40, 8).chunk(markdown(body)))
                .isEqualTo(chunker(40, 8).chunk(markdown(body)));
    }

    @Test
    void rejectsBadConfig() {
        assertThatThrownBy(() -> new ChunkingConfig(8, 0))
                .hasMessage("illegal maxTokens: 8, must be >= 16");
        assertThatThrownBy(() -> new ChunkingConfig(64, 40))
                .hasMessage("illegal overlapTokens: 40, must be in [0, 32]");
    }

    private static List<String> commonPrefixSuffix(List<String> prev, List<String> next) {
        for (int len = Math.min(prev.size(), next.size()); len > 0; len--) {
            if (prev.subList(prev.size() - len, prev.size()).equals(next.subList(0, len))) {
                return next.subList(0, len);
            }
        }
        return List.of();
    }

    private static List<String> words(String text) {
        return Arrays.stream(text.split("[^\\p{L}\\p{N}_]+")).filter(w -> !w.isEmpty()).toList();
    }

    /** Headings, paragraphs, long sentences, code fences; every word unique. */
    private static String randomMarkdown(Random random) {
        StringBuilder sb = new StringBuilder();
        int word = 0;
        int sections = 1 + random.nextInt(5);
        for (int s = 0; s < sections; s++) {
            sb.append("#".repeat(1 + random.nextInt(3)))
                    .append(" heading")
                    .append(word++)
                    .append("\n\n");
            int paragraphs = random.nextInt(5);
            for (int p = 0; p < paragraphs; p++) {
                if (random.nextInt(6) == 0) {
                    sb.append("```\n# code")
                            .append(word++)
                            .append("\n\nline")
                            .append(word++)
                            .append("\n```\n\n");
                    continue;
                }
                int sentences = 1 + random.nextInt(8);
                List<String> ss = new ArrayList<>();
                for (int k = 0; k < sentences; k++) {
                    int len = 1 + random.nextInt(random.nextInt(10) == 0 ? 200 : 25);
                    StringBuilder sentence = new StringBuilder();
                    for (int w = 0; w < len; w++) {
                        sentence.append(w == 0 ? "" : " ").append("w").append(word++);
                        if (random.nextInt(12) == 0) {
                            sentence.append(",");
                        }
                    }
                    ss.add(sentence + ".");
                }
                sb.append(String.join(" ", ss)).append("\n\n");
            }
        }
        return sb.toString();
    }
}
