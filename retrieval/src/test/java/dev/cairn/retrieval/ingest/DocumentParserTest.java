package dev.cairn.retrieval.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.graph.RelationType;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.retrieval.store.DocumentFormat;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class DocumentParserTest {

    private static final String RUNBOOK =
            """
            ---
            id: search-reindex
            title: Rebuild the product index
            authority: authoritative
            tags: [search, maintenance]
            source: https://wiki.example/search-reindex
            entities:
              - {name: search-cluster, kind: service, aliases: [elasticsearch, es]}
              - object-storage
            governs: [search-cluster]
            depends_on: object-storage
            supersedes: [search-reindex-2019]
            contradicts: []
            owner: team-search
            reviewed: 2024-01-02
            extra: {a: 1, b: [x, y]}
            ---
            # Ignored heading title

            Body text.
            """;

    @Test
    void readsEveryFrontMatterKey() {
        ParsedDocument d = DocumentParser.parseMarkdown(RUNBOOK, "runbook.md");

        assertThat(d.id()).isEqualTo("search-reindex");
        assertThat(d.title()).isEqualTo("Rebuild the product index");
        assertThat(d.format()).isEqualTo(DocumentFormat.MARKDOWN);
        assertThat(d.authority()).isEqualTo(Authority.AUTHORITATIVE);
        assertThat(d.tags()).containsExactly("search", "maintenance");
        assertThat(d.source()).isEqualTo("https://wiki.example/search-reindex");
        assertThat(d.entities())
                .containsExactly(
                        new DeclaredEntity(
                                "search-cluster", "service", List.of("elasticsearch", "es")),
                        new DeclaredEntity("object-storage", "", List.of()));
        assertThat(d.relations())
                .containsOnly(
                        Map.entry(RelationType.GOVERNS, List.of("search-cluster")),
                        Map.entry(RelationType.DEPENDS_ON, List.of("object-storage")),
                        Map.entry(RelationType.SUPERSEDES, List.of("search-reindex-2019")),
                        Map.entry(RelationType.CONTRADICTS, List.of()));
        assertThat(d.metadata())
                .containsExactly(
                        Map.entry("owner", "team-search"),
                        Map.entry("reviewed", "2024-01-02"),
                        Map.entry("extra", "{a: 1, b: [x, y]}"));
        assertThat(d.body()).isEqualTo("# Ignored heading title\n\nBody text.\n");
    }

    @Test
    void titleFallsBackToFirstHeadingOutsideCodeThenFileName() {
        String md = "```\n# not a title\n```\nintro\n\n# Real Title #\n\n## Sub\n";

        assertThat(DocumentParser.parseMarkdown(md, "docs/a.md").title()).isEqualTo("Real Title");
        assertThat(DocumentParser.parseMarkdown("no headings", "docs/notes.md").title())
                .isEqualTo("notes");
        assertThat(DocumentParser.parseMarkdown("no headings", "docs/notes.md").id())
                .isEqualTo("notes");
    }

    @Test
    void malformedFrontMatterNamesTheLineInTheFile() {
        String md = "---\nid: x\ntags: [a, b\ntitle: t\n---\nbody\n";

        assertThatThrownBy(() -> DocumentParser.parseMarkdown(md, "bad.md"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("malformed front matter in bad.md at line 4");
    }

    @Test
    void wrongValueTypesNameTheirLine() {
        String md = "---\nid: x\nauthority: gospel\n---\n";

        assertThatThrownBy(() -> DocumentParser.parseMarkdown(md, "bad.md"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("malformed front matter in bad.md at line 3")
                .hasMessageContaining("illegal authority: 'gospel'");
        assertThatThrownBy(() -> DocumentParser.parseMarkdown("---\n\ntitle: [a]\n---\n", "t.md"))
                .hasMessageStartingWith("malformed front matter in t.md at line 3");
    }

    @Test
    void unclosedFrontMatterIsAnErrorAtLineOne() {
        assertThatThrownBy(() -> DocumentParser.parseMarkdown("---\nid: x\nbody", "open.md"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at line 1");
    }

    @Test
    void frontMatterPastTheAliasLimitIsRefusedInCairnsWords() {
        StringBuilder md = new StringBuilder("---\nbase: &b [x, y]\n");
        for (int i = 0; i <= 10; i++) {
            md.append("k").append(i).append(": *b\n");
        }
        md.append("---\n# Body\n");
        assertThatThrownBy(() -> DocumentParser.parseMarkdown(md.toString(), "laughs.md"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "front matter in laughs.md refers to lists or mappings by alias (*name)"
                                + " more than 10 times; write the values out instead");
        // ten are fine
        StringBuilder ten = new StringBuilder("---\nbase: &b [x, y]\n");
        for (int i = 0; i < 10; i++) {
            ten.append("k").append(i).append(": *b\n");
        }
        ten.append("---\n# Body\n");
        assertThat(DocumentParser.parseMarkdown(ten.toString(), "ten.md").metadata())
                .containsEntry("k9", "[x, y]");
    }

    @Test
    void frontMatterNestedTooDeeplyIsRefusedInCairnsWords() {
        String deep = "---\nk: " + "[".repeat(25) + "]".repeat(25) + "\n---\n# Body\n";
        assertThatThrownBy(() -> DocumentParser.parseMarkdown(deep, "deep.md"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "front matter in deep.md nests lists and mappings deeper than 20 levels");
    }

    @Test
    void duplicateKeysAreRejected() {
        assertThatThrownBy(() -> DocumentParser.parseMarkdown("---\nid: a\nid: b\n---\n", "d.md"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at line 3");
    }

    @Test
    void plainTextKeepsEverythingAsBody() {
        ParsedDocument d =
                DocumentParser.parse(
                        "---\nnot: front matter\n".getBytes(StandardCharsets.UTF_8), "x.txt");

        assertThat(d.format()).isEqualTo(DocumentFormat.TEXT);
        assertThat(d.title()).isEqualTo("x");
        assertThat(d.body()).isEqualTo("---\nnot: front matter\n");
        assertThat(d.authority()).isEqualTo(Authority.UNVERIFIED);
    }

    @Test
    void rejectsInvalidUtf8AndBinaryContent() {
        byte[] latin1 = "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1);
        byte[] nul = "line one\nline\0two".getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> DocumentParser.parse(latin1, "a.md"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid UTF-8 in a.md");
        assertThatThrownBy(() -> DocumentParser.parse(nul, "a.txt"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("U+0000 at line 2");
    }

    @Test
    void streamsBeirCorpusLines() {
        String jsonl =
                "{\"_id\": \"d1\", \"title\": \"T1\", \"text\": \"one\", \"metadata\": {}}\n"
                        + "\n"
                        + "{\"_id\": 2, \"text\": \"two\"}\n";

        try (Stream<ParsedDocument> docs =
                BeirCorpusReader.read(
                        new ByteArrayInputStream(jsonl.getBytes(StandardCharsets.UTF_8)))) {
            assertThat(docs.toList())
                    .extracting(ParsedDocument::id, ParsedDocument::title, ParsedDocument::body)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("d1", "T1", "one"),
                            org.assertj.core.groups.Tuple.tuple("2", "", "two"));
        }
    }

    @Test
    void beirCorpusErrorsNameTheLine() {
        String jsonl = "{\"_id\": \"d1\", \"text\": \"ok\"}\n{not json\n";

        try (Stream<ParsedDocument> docs =
                BeirCorpusReader.read(
                        new ByteArrayInputStream(jsonl.getBytes(StandardCharsets.UTF_8)))) {
            assertThatThrownBy(docs::toList)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("line 2");
        }
    }
}
