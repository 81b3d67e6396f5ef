package dev.cairn.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.cairn.api.body.NamespaceBody;
import dev.cairn.api.body.RetrieveBody;
import dev.cairn.api.view.DocumentView;
import dev.cairn.api.view.RetrieveAnswer;
import dev.cairn.client.CairnClient;
import dev.cairn.client.CairnException;
import dev.cairn.client.HitMetadata;
import dev.cairn.client.NamespaceClient;
import dev.cairn.testsupport.CairnServerTest;
import dev.cairn.testsupport.TestCairn;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.ai.content.Media;
import org.springframework.ai.document.Document;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.util.MimeTypeUtils;

/**
 * The vector store against a real server (embedded store here, the PostgreSQL subclass on
 * PostgreSQL; the real embedding model): what it stores, that its ranking is Cairn's retrieve to
 * the chunk and the score, that each supported filter selects what the same Cairn filter selects,
 * and that it refuses what Cairn cannot do.
 */
class CairnVectorStoreTest extends CairnServerTest {

    static final Document REINDEX =
            Document.builder()
                    .id("reindex")
                    .text(
                            "Reindex the product search: freeze catalogue imports, snapshot the"
                                    + " search cluster, then run the full reindex; it takes about"
                                    + " forty minutes.")
                    .metadata(
                            Map.of(
                                    "title", "Reindex the product search",
                                    "tags", List.of("search", "maintenance"),
                                    "source", "wiki/search",
                                    "authority", "authoritative",
                                    "team", "search",
                                    "year", 2024))
                    .build();

    static final Document DRAIN =
            Document.builder()
                    .id("drain")
                    .text(
                            "Drain the payments queue: hold the payment producers, let the"
                                    + " consumers reach a lag of zero, then bring the workers"
                                    + " back.")
                    .metadata(
                            Map.of(
                                    "tags", "payments",
                                    "source", "wiki/payments",
                                    "authority", "supporting",
                                    "team", "payments",
                                    "year", 2023))
                    .build();

    static final Document ROTATE =
            Document.builder()
                    .id("rotate")
                    .text(
                            "Rotate the TLS certificates: issue the new certificate, deploy it"
                                    + " next to the old one, then switch the load balancer.")
                    .metadata(
                            Map.of(
                                    "tags",
                                    List.of("security", "maintenance"),
                                    "team",
                                    "platform",
                                    "year",
                                    2024))
                    .build();

    static final Document REFUND =
            Document.builder()
                    .id("refund")
                    .text(
                            "Refund a payment: find the charge, refund it from the payments"
                                    + " console, and note the ticket in the ledger.")
                    .metadata(Map.of("tags", List.of("payments"), "team", "payments", "year", 2024))
                    .build();

    CairnClient client;
    NamespaceClient docs;
    CairnVectorStore store;

    @BeforeAll
    void connect() {
        client = closedAfterAll(CairnClient.of(baseUri(), TestCairn.ADMIN));
        client.createNamespace(new NamespaceBody("docs", "runbooks", null));
        docs = client.namespace("docs");
        store = new CairnVectorStore(docs);
        store.add(List.of(REINDEX, DRAIN, ROTATE, REFUND));
    }

    @Test
    void addedDocumentsKeepTheirIdTextFieldsAndMetadata() {
        DocumentView.Detail reindex = docs.document("reindex");

        assertThat(reindex.content()).isEqualTo(REINDEX.getText());
        assertThat(reindex.document().format()).isEqualTo("text");
        assertThat(reindex.document().title()).isEqualTo("Reindex the product search");
        assertThat(reindex.document().tags()).containsExactly("search", "maintenance");
        assertThat(reindex.document().source()).isEqualTo("wiki/search");
        assertThat(reindex.document().authority()).isEqualTo("authoritative");
        assertThat(reindex.document().metadata())
                .as("every other key, a number as its JSON text")
                .containsOnly(Map.entry("team", "search"), Map.entry("year", "2024"));
        assertThat(docs.document("drain").document().tags())
                .as("one tag as a string")
                .containsExactly("payments");

        store.add(List.of(REINDEX));
        assertThat(docs.document("reindex").document().version())
                .as("an unchanged document is skipped")
                .isEqualTo(1);
    }

    @Test
    void searchAnswersCairnsHitsInCairnsOrderWithTheirScoresAndMetadata() {
        String query = "how do I drain the payments queue";
        RetrieveAnswer ranked = docs.retrieve(query, 3);

        List<Document> found =
                store.similaritySearch(SearchRequest.builder().query(query).topK(3).build());

        assertThat(found).hasSize(3);
        assertThat(found)
                .extracting(Document::getId)
                .as("a hit is a chunk: its id is the chunk id")
                .containsExactlyElementsOf(
                        ranked.hits().stream().map(RetrieveAnswer.Hit::chunkId).toList());
        assertThat(found.getFirst().getMetadata().get(HitMetadata.DOCUMENT_ID)).isEqualTo("drain");
        String traceId = (String) found.getFirst().getMetadata().get(HitMetadata.TRACE_ID);
        assertThat(traceId).isNotBlank().isNotEqualTo(ranked.traceId());
        for (int i = 0; i < found.size(); i++) {
            RetrieveAnswer.Hit hit = ranked.hits().get(i);
            Document document = found.get(i);
            assertThat(document.getText()).isEqualTo(hit.text());
            assertThat(document.getScore()).isEqualTo(hit.score());
            assertThat(document.getMetadata())
                    .containsExactlyInAnyOrderEntriesOf(HitMetadata.of(traceId, hit));
        }
        assertThat(found.getFirst().getMetadata())
                .containsKeys("cairn.rank.lexical", "cairn.rank.dense", "cairn.score.dense");
    }

    @Test
    void eachSupportedFilterSelectsWhatTheSameCairnFilterSelects() {
        String query = "runbook steps";
        Map<String, RetrieveBody.Filters> cases = new LinkedHashMap<>();
        cases.put(
                "team == 'payments'",
                new RetrieveBody.Filters(null, null, null, Map.of("team", List.of("payments"))));
        cases.put(
                "year == 2024 && tags in ['maintenance']",
                new RetrieveBody.Filters(
                        List.of("maintenance"), null, null, Map.of("year", List.of("2024"))));
        cases.put(
                "authority == 'authoritative'",
                new RetrieveBody.Filters(null, null, List.of("authoritative"), null));
        cases.put(
                "source in ['wiki/payments', 'wiki/elsewhere']",
                new RetrieveBody.Filters(null, List.of("wiki/payments", "wiki/elsewhere"), null));
        cases.put(
                "team in ['payments', 'search'] && (year == 2023)",
                new RetrieveBody.Filters(
                        null,
                        null,
                        null,
                        Map.of("team", List.of("payments", "search"), "year", List.of("2023"))));
        Map<String, List<String>> expected =
                Map.of(
                        "team == 'payments'", List.of("drain", "refund"),
                        "year == 2024 && tags in ['maintenance']", List.of("reindex", "rotate"),
                        "authority == 'authoritative'", List.of("reindex"),
                        "source in ['wiki/payments', 'wiki/elsewhere']", List.of("drain"),
                        "team in ['payments', 'search'] && (year == 2023)", List.of("drain"));

        cases.forEach(
                (expression, filters) -> {
                    List<Document> found =
                            store.similaritySearch(
                                    SearchRequest.builder()
                                            .query(query)
                                            .topK(10)
                                            .filterExpression(expression)
                                            .build());
                    RetrieveAnswer ranked =
                            docs.retrieve(RetrieveBody.of(query, 10).withFilters(filters));
                    assertThat(found)
                            .as(expression)
                            .extracting(Document::getId)
                            .containsExactlyElementsOf(
                                    ranked.hits().stream()
                                            .map(RetrieveAnswer.Hit::chunkId)
                                            .toList());
                    assertThat(found)
                            .as(expression)
                            .extracting(d -> d.getMetadata().get(HitMetadata.DOCUMENT_ID))
                            .containsExactlyInAnyOrderElementsOf(expected.get(expression));
                });
    }

    @Test
    void anUnsupportedOperatorIsRefusedByName() {
        assertThatThrownBy(
                        () ->
                                store.similaritySearch(
                                        SearchRequest.builder()
                                                .query("payments")
                                                .filterExpression("year > 2023 || team == 'x'")
                                                .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Cairn's retrieve filters cannot express OR")
                .hasMessageEndingWith("supported: EQ and IN on a key, joined with AND");
        assertThatThrownBy(
                        () ->
                                store.similaritySearch(
                                        SearchRequest.builder()
                                                .query("payments")
                                                .filterExpression("team != 'x'")
                                                .build()))
                .hasMessageStartingWith("Cairn's retrieve filters cannot express NE");
    }

    @Test
    void theThresholdKeepsHitsWhoseFusedScoreReachesIt() {
        String query = "payments";
        List<Document> all =
                store.similaritySearch(SearchRequest.builder().query(query).topK(4).build());
        assertThat(all).hasSize(4);
        assertThat(all.getFirst().getScore())
                .as("a rank-based fused score, not a cosine")
                .isBetween(0.0, 0.1);
        double second = all.get(1).getScore();
        assertThat(all.get(2).getScore()).isLessThan(second);

        List<Document> kept =
                store.similaritySearch(
                        SearchRequest.builder()
                                .query(query)
                                .topK(4)
                                .similarityThreshold(second)
                                .build());

        assertThat(kept)
                .extracting(Document::getId)
                .containsExactly(all.get(0).getId(), all.get(1).getId());
    }

    @Test
    void deleteRemovesDocumentsByIdAndRefusesAFilter() {
        store.add(
                List.of(
                        new Document("short-lived-1", "Restart the mail relay.", Map.of()),
                        new Document("short-lived-2", "Restart the print server.", Map.of())));

        store.delete(List.of("short-lived-1", "short-lived-2"));

        assertThat(
                        catchThrowableOfType(
                                        CairnException.class, () -> docs.document("short-lived-1"))
                                .status())
                .isEqualTo(404);
        assertThat(
                        catchThrowableOfType(
                                        CairnException.class, () -> docs.document("short-lived-2"))
                                .status())
                .isEqualTo(404);
        assertThat(
                        catchThrowableOfType(
                                        CairnException.class,
                                        () -> store.delete(List.of("never-added")))
                                .status())
                .isEqualTo(404);
        assertThatThrownBy(() -> store.delete("team == 'payments'"))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("Cairn deletes documents by id only: call delete(List<String> ids)");
        assertThat(docs.document("drain").document().id()).as("nothing deleted").isEqualTo("drain");
    }

    @Test
    void aMediaDocumentAndTagsThatAreNotStringsAreRefused() {
        Document image =
                new Document(
                        "picture",
                        new Media(MimeTypeUtils.IMAGE_PNG, URI.create("https://example.org/a.png")),
                        Map.of());
        assertThatThrownBy(() -> store.add(List.of(image)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("document picture holds media; Cairn stores text only");
        assertThatThrownBy(
                        () ->
                                store.add(
                                        List.of(
                                                new Document(
                                                        "numbered",
                                                        "Some text.",
                                                        Map.of("tags", 7)))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "document numbered: metadata 'tags' must be a string or a collection of"
                                + " strings, was 7");
        assertThat(store.getNativeClient()).contains(docs);
    }
}
