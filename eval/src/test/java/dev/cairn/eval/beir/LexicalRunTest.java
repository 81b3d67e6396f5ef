package dev.cairn.eval.beir;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.retrieval.lexical.IndexedChunk;
import dev.cairn.retrieval.lexical.LexicalConfig;
import dev.cairn.retrieval.lexical.LexicalIndex;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LexicalRunTest {

    @Test
    void ranksDocumentsByTheirBestChunkWithoutDuplicates() {
        try (LexicalIndex index = LexicalIndex.inMemory(LexicalConfig.DEFAULTS)) {
            index.upsertDocument(
                    "t",
                    "many",
                    List.of(
                            new IndexedChunk("many#0", "", List.of(), "glacier glacier moraine"),
                            new IndexedChunk("many#1", "", List.of(), "glacier")));
            index.upsertDocument(
                    "t", "one", List.of(new IndexedChunk("one#0", "", List.of(), "glacier river")));
            index.upsertDocument(
                    "t", "none", List.of(new IndexedChunk("none#0", "", List.of(), "desert")));

            Map<String, List<ScoredDoc>> run =
                    LexicalRun.run(index, "t", Map.of("q", "glacier moraine"), 10, false);

            assertThat(run.get("q")).extracting(ScoredDoc::id).containsExactly("many", "one");
            assertThat(LexicalRun.ids(run)).containsEntry("q", List.of("many", "one"));
        }
    }
}
