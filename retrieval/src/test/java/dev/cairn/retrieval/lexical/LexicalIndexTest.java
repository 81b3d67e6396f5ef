package dev.cairn.retrieval.lexical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LexicalIndexTest {

    private static final String NS = "ops";

    private static IndexedChunk chunk(String id, String title, String text, String... headings) {
        return new IndexedChunk(id, title, List.of(headings), text);
    }

    private static void seed(LexicalIndex index) {
        index.upsertDocument(
                NS,
                "reindex",
                List.of(
                        chunk(
                                "reindex#0",
                                "Rebuild the product index",
                                "Stop the ingest workers first.",
                                "Steps"),
                        chunk(
                                "reindex#1",
                                "Rebuild the product index",
                                "Run the reindex job and watch the queue.",
                                "Steps")));
        index.upsertDocument(
                NS,
                "backup",
                List.of(
                        chunk(
                                "backup#0",
                                "Nightly backups",
                                "Backups of object storage run at two o'clock.")));
    }

    @Test
    void findsChunksByAnalysedTermsAndReportsTheirDocument() {
        try (LexicalIndex index = LexicalIndex.inMemory(LexicalConfig.DEFAULTS)) {
            seed(index);

            List<LexicalHit> hits = index.search(NS, "how do I rebuild indexes?", 10, false);

            assertThat(hits).isNotEmpty();
            assertThat(hits).extracting(LexicalHit::documentId).containsOnly("reindex");
            assertThat(hits).extracting(LexicalHit::rank).startsWith(1, 2);
            assertThat(hits.getFirst().explanation()).isEmpty();
        }
    }

    @Test
    void explainsScoresWhenAsked() {
        try (LexicalIndex index = LexicalIndex.inMemory(LexicalConfig.DEFAULTS)) {
            seed(index);

            LexicalHit hit = index.search(NS, "backups", 1, true).getFirst();

            assertThat(hit.chunkId()).isEqualTo("backup#0");
            assertThat(hit.explanation())
                    .hasValueSatisfying(e -> assertThat(e).contains("idf", "tf", "0.9"));
        }
    }

    @Test
    void neverThrowsOnQuerySyntax() {
        try (LexicalIndex index = LexicalIndex.inMemory(LexicalConfig.DEFAULTS)) {
            seed(index);
            for (String q :
                    List.of(
                            "reindex AND (",
                            "\"unbalanced",
                            "title:[a TO",
                            "*?~^!{}[]\\/:+-&&||",
                            "",
                            "the and of",
                            "x".repeat(10_000),
                            String.join(" ", java.util.Collections.nCopies(3000, "queue")))) {
                assertThat(index.search(NS, q, 5, false))
                        .as(q.substring(0, Math.min(40, q.length())))
                        .isNotNull();
            }
            assertThat(index.search(NS, "reindex AND (", 5, false))
                    .extracting(LexicalHit::documentId)
                    .containsOnly("reindex");
        }
    }

    @Test
    void upsertReplacesAllChunksOfTheDocument() {
        try (LexicalIndex index = LexicalIndex.inMemory(LexicalConfig.DEFAULTS)) {
            seed(index);

            index.upsertDocument(
                    NS,
                    "reindex",
                    List.of(chunk("reindex#v2", "Rebuild", "Use the new pipeline.")));

            assertThat(index.chunkCount(NS)).isEqualTo(2);
            assertThat(index.search(NS, "queue workers", 10, false)).isEmpty();
            assertThat(index.search(NS, "pipeline", 10, false))
                    .extracting(LexicalHit::chunkId)
                    .containsExactly("reindex#v2");
        }
    }

    @Test
    void deleteRemovesTheDocument() {
        try (LexicalIndex index = LexicalIndex.inMemory(LexicalConfig.DEFAULTS)) {
            seed(index);

            index.deleteDocument(NS, "backup");
            index.deleteDocument(NS, "never-indexed");

            assertThat(index.search(NS, "backups", 10, false)).isEmpty();
            assertThat(index.chunkCount(NS)).isEqualTo(2);
        }
    }

    @Test
    void namespacesAreIsolated() {
        try (LexicalIndex index = LexicalIndex.inMemory(LexicalConfig.DEFAULTS)) {
            seed(index);
            index.upsertDocument(
                    "other", "x", List.of(chunk("x#0", "Backups elsewhere", "backups")));

            assertThat(index.search(NS, "backups", 10, false))
                    .extracting(LexicalHit::chunkId)
                    .containsExactly("backup#0");
            assertThat(index.search("other", "backups", 10, false))
                    .extracting(LexicalHit::chunkId)
                    .containsExactly("x#0");
            assertThat(index.search("unknown", "backups", 10, false)).isEmpty();

            index.deleteNamespace("other");
            assertThat(index.search("other", "backups", 10, false)).isEmpty();
        }
    }

    @Test
    void tiesBreakByChunkIdAscending() {
        try (LexicalIndex index = LexicalIndex.inMemory(LexicalConfig.DEFAULTS)) {
            index.upsertDocument(NS, "d2", List.of(chunk("c", "", "alpha beta")));
            index.upsertDocument(
                    NS, "d1", List.of(chunk("b", "", "alpha beta"), chunk("a", "", "alpha beta")));

            assertThat(index.search(NS, "alpha", 10, false))
                    .extracting(LexicalHit::chunkId)
                    .containsExactly("a", "b", "c");
            // The tie crosses the cut: the chunk ids decide, not the index order.
            assertThat(index.search(NS, "alpha", 2, false))
                    .extracting(LexicalHit::chunkId)
                    .containsExactly("a", "b");
        }
    }

    @Test
    void eachHitKeepsItsOwnDocumentIdWhetherOrNotATieCrossesTheCut() {
        try (LexicalIndex index = LexicalIndex.inMemory(LexicalConfig.DEFAULTS)) {
            // several segments (a commit between writes), ids not in index order
            index.upsertDocument(NS, "d3", List.of(chunk("z", "", "gamma delta")));
            index.commit();
            index.upsertDocument(
                    NS, "d1", List.of(chunk("m", "", "gamma delta"), chunk("y", "", "gamma")));
            index.commit();
            index.upsertDocument(NS, "d2", List.of(chunk("k", "", "gamma delta")));

            // "z", "m" and "k" tie; "y" is shorter and scores higher
            assertThat(index.search(NS, "gamma", 3, false))
                    .extracting(LexicalHit::chunkId, LexicalHit::documentId)
                    .containsExactly(tuple("y", "d1"), tuple("k", "d2"), tuple("m", "d1"));
            assertThat(index.search(NS, "gamma", 10, false))
                    .extracting(LexicalHit::chunkId, LexicalHit::documentId)
                    .containsExactly(
                            tuple("y", "d1"), tuple("k", "d2"), tuple("m", "d1"), tuple("z", "d3"));
        }
    }

    @Test
    void keepsTheLastAppliedSequenceAcrossRestarts(@TempDir Path dir) {
        try (LexicalIndex index = LexicalIndex.open(dir, LexicalConfig.DEFAULTS)) {
            assertThat(index.lastAppliedSeq()).isZero();
            seed(index);
            index.setLastAppliedSeq(42);
            index.commit();
            index.upsertDocument(NS, "uncommitted", List.of(chunk("u#0", "", "volatile words")));
            index.setLastAppliedSeq(43);
        }
        try (LexicalIndex index = LexicalIndex.open(dir, LexicalConfig.DEFAULTS)) {
            assertThat(index.lastAppliedSeq()).isEqualTo(42);
            assertThat(index.chunkCount(NS)).isEqualTo(3);
            assertThat(index.search(NS, "volatile", 10, false)).isEmpty();
        }
    }

    @Test
    void readsAndWritesConcurrently() throws Exception {
        try (LexicalIndex index = LexicalIndex.inMemory(LexicalConfig.DEFAULTS);
                ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                futures.add(
                        pool.submit(
                                () -> {
                                    for (int i = 0; i < 50; i++) {
                                        String doc = "d" + thread + "-" + i;
                                        index.upsertDocument(
                                                NS,
                                                doc,
                                                List.of(
                                                        chunk(
                                                                doc + "#0",
                                                                "",
                                                                "shared term " + doc)));
                                        index.search(NS, "shared term", 5, false);
                                    }
                                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            assertThat(index.chunkCount(NS)).isEqualTo(200);
        }
    }

    @Test
    void rejectsBadInput() {
        try (LexicalIndex index = LexicalIndex.inMemory(LexicalConfig.DEFAULTS)) {
            assertThatThrownBy(() -> index.search("Bad NS", "q", 1, false))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("illegal namespace: 'Bad NS'");
            assertThatThrownBy(() -> index.search(NS, "q", 0, false))
                    .hasMessage("illegal topN: 0, must be >= 1");
            assertThatThrownBy(
                            () ->
                                    index.upsertDocument(
                                            NS,
                                            "d",
                                            List.of(chunk("a", "", "x"), chunk("a", "", "y"))))
                    .hasMessageContaining("duplicate chunkId 'a'");
        }
        assertThatThrownBy(() -> LexicalConfig.DEFAULTS.withBm25(0.9, 1.5))
                .hasMessage("illegal b: 1.5, must be in [0, 1]");
    }
}
