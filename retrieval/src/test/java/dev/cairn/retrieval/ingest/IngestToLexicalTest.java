package dev.cairn.retrieval.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.retrieval.lexical.IndexedChunk;
import dev.cairn.retrieval.lexical.LexicalConfig;
import dev.cairn.retrieval.lexical.LexicalHit;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.retrieval.store.ChunkDraft;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parsing, chunking and lexical indexing together on a hand-written runbook fixture. */
class IngestToLexicalTest {

    private static ParsedDocument fixture() throws IOException {
        try (InputStream in =
                IngestToLexicalTest.class.getResourceAsStream("/fixtures/cache-flush.md")) {
            return DocumentParser.parse(in.readAllBytes(), "cache-flush.md");
        }
    }

    @Test
    void aParsedRunbookIsFoundByItsSectionContent() throws IOException {
        ParsedDocument doc = fixture();
        List<ChunkDraft> chunks =
                Chunker.headingAware(new WordTokenCounter(), new ChunkingConfig(32, 8)).chunk(doc);

        assertThat(doc.id()).isEqualTo("cache-flush");
        assertThat(doc.authority()).isEqualTo(Authority.SUPPORTING);
        assertThat(doc.metadata()).containsEntry("owner", "team-web");
        assertThat(chunks)
                .extracting(ChunkDraft::headingPath)
                .contains(
                        List.of("Flush the edge cache", "Before you start"),
                        List.of("Flush the edge cache", "Steps", "Verify"),
                        List.of("Flush the edge cache", "Rollback"));

        try (LexicalIndex index = LexicalIndex.inMemory(LexicalConfig.DEFAULTS)) {
            index.upsertDocument(
                    "web",
                    doc.id(),
                    chunks.stream()
                            .map(
                                    c ->
                                            new IndexedChunk(
                                                    doc.id() + "#" + c.ordinal(),
                                                    doc.title(),
                                                    c.headingPath(),
                                                    c.text()))
                            .toList());

            List<LexicalHit> hits = index.search("web", "how do I rollback the cache?", 3, false);

            int rollback =
                    chunks.stream()
                            .filter(c -> c.headingPath().getLast().equals("Rollback"))
                            .findFirst()
                            .orElseThrow()
                            .ordinal();
            assertThat(hits.getFirst().chunkId()).isEqualTo("cache-flush#" + rollback);
        }
    }
}
