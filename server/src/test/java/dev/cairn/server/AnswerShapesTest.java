package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.server.http.Json;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The field names, and their order, of the answers built from records: documents, retrieve, traces,
 * memories, recall and applied proposals, exactly as the API has always sent them.
 */
@RoutingTest
class AnswerShapesTest {

    static final String A = CairnCalls.ADMIN;
    static final String NS = "/v1/namespaces/shapes";
    static final List<String> MEMORY =
            List.of(
                    "id",
                    "namespace",
                    "type",
                    "layer",
                    "status",
                    "content",
                    "tags",
                    "confidence",
                    "importance",
                    "conflictKey",
                    "userId",
                    "agentId",
                    "sessionName",
                    "taskName",
                    "parentTask",
                    "source",
                    "createdAt",
                    "updatedAt",
                    "expiresAt",
                    "recalledCount",
                    "disabled",
                    "deleted",
                    "contentHash",
                    "embeddingModel");
    static final List<String> DOCUMENT =
            List.of(
                    "id",
                    "version",
                    "title",
                    "format",
                    "source",
                    "authority",
                    "tags",
                    "metadata",
                    "contentHash",
                    "createdAt",
                    "updatedAt");

    static final Path RUNBOOKS = Path.of("..", "graph", "src", "test", "resources", "runbooks");

    @TempDir static Path dataDir;
    static RoutedCairn cairn;
    static JsonNode uploaded;

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        Duration patient = Duration.ofSeconds(30);
        cairn =
                RoutedCairn.open(
                        ServerSettings.defaults(dataDir)
                                .withPort(0)
                                .withAdminToken(A)
                                .withRetrieval(
                                        dev.cairn.retrieval.RetrievalConfig.defaults()
                                                .withTimeouts(patient, patient, patient)),
                        routing);
    }

    @BeforeAll
    static void start(DirectClient client) {
        cairn.connect(client);
        cairn.call(
                "POST", "/v1/namespaces", A, "{\"name\":\"shapes\",\"recallScope\":\"namespace\"}");
        ObjectNode doc = Json.MAPPER.createObjectNode();
        doc.put("content", "# Rotate the keys\n\nRotate the signing keys every ninety days.");
        doc.put("id", "rotate-keys");
        var r = cairn.call("POST", NS + "/documents", A, doc.toString());
        assertThat(r.status()).as(r.body()).isEqualTo(201);
        uploaded = r.json();
        ObjectNode runbook = Json.MAPPER.createObjectNode();
        try {
            runbook.put("content", Files.readString(RUNBOOKS.resolve("search-reindex.md")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        var indexed = cairn.call("POST", NS + "/documents", A, runbook.toString());
        assertThat(indexed.status()).as(indexed.body()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    static List<String> fields(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    static List<String> plus(List<String> base, String... more) {
        List<String> all = new ArrayList<>(base);
        all.addAll(List.of(more));
        return all;
    }

    @Test
    void documentAnswers() {
        assertThat(fields(uploaded)).containsExactly("id", "version", "chunks", "unchanged");
        JsonNode listed = cairn.call("GET", NS + "/documents", A, null).json();
        assertThat(fields(listed)).containsExactly("items", "total");
        assertThat(fields(listed.at("/items/0"))).containsExactlyElementsOf(DOCUMENT);
        JsonNode detail = cairn.call("GET", NS + "/documents/rotate-keys", A, null).json();
        assertThat(fields(detail)).containsExactlyElementsOf(plus(DOCUMENT, "content", "chunks"));
        assertThat(fields(detail.at("/chunks/0")))
                .containsExactly(
                        "chunkId",
                        "ordinal",
                        "heading",
                        "headingPath",
                        "text",
                        "tokens",
                        "embeddingModel");
    }

    @Test
    void retrieveAnswerAndItsTrace() {
        JsonNode plain =
                cairn.call("POST", NS + "/retrieve", A, "{\"query\":\"signing keys\"}").json();
        List<String> answer =
                List.of(
                        "traceId",
                        "hits",
                        "evidence",
                        "entities",
                        "relations",
                        "grounding",
                        "plan",
                        "timings",
                        "signals",
                        "partial",
                        "adaptation");
        assertThat(fields(plain)).containsExactlyElementsOf(answer);
        assertThat(fields(plain.at("/hits/0")))
                .containsExactly(
                        "chunkId",
                        "documentId",
                        "title",
                        "text",
                        "heading",
                        "score",
                        "authority",
                        "ranks",
                        "scores");
        assertThat(fields(plain.path("timings")))
                .containsExactly("lexicalMs", "denseMs", "graphMs", "fusionMs", "totalMs");
        assertThat(fields(plain.at("/signals/lexical")))
                .startsWith("status", "ms", "returned")
                .isSubsetOf("status", "ms", "returned", "detail");

        JsonNode traced =
                cairn.call(
                                "POST",
                                NS + "/retrieve",
                                A,
                                "{\"query\":\"signing keys\",\"trace\":true}")
                        .json();
        assertThat(fields(traced))
                .containsExactlyElementsOf(
                        List.of(
                                "traceId",
                                "hits",
                                "trace",
                                "evidence",
                                "entities",
                                "relations",
                                "grounding",
                                "plan",
                                "timings",
                                "signals",
                                "partial",
                                "adaptation"));
        assertThat(fields(traced.at("/trace/0")))
                .startsWith("chunkId", "documentId", "ranks", "scores", "fused", "selected")
                .isSubsetOf(
                        "chunkId",
                        "documentId",
                        "ranks",
                        "scores",
                        "fused",
                        "selected",
                        "filteredOut",
                        "explanation",
                        "graphPath");

        JsonNode stored =
                cairn.call("GET", NS + "/traces/" + traced.path("traceId").asText(), A, null)
                        .json();
        assertThat(fields(stored))
                .containsExactly(
                        "traceId",
                        "query",
                        "request",
                        "grounding",
                        "plan",
                        "timings",
                        "signals",
                        "createdAt",
                        "trace");
        assertThat(fields(stored.at("/trace/0")))
                .startsWith(
                        "chunkId",
                        "documentId",
                        "fused",
                        "ranks",
                        "scores",
                        "selected",
                        "title",
                        "heading",
                        "text",
                        "authority")
                .isSubsetOf(
                        "chunkId",
                        "documentId",
                        "fused",
                        "ranks",
                        "scores",
                        "selected",
                        "title",
                        "heading",
                        "text",
                        "authority",
                        "filteredOut",
                        "explanation",
                        "graphPath");
    }

    @Test
    void memoryAnswers() {
        var created =
                cairn.call(
                        "POST",
                        NS + "/memories",
                        A,
                        "{\"type\":\"fact\",\"content\":\"The signing keys rotate every ninety"
                                + " days\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(fields(created.json())).containsExactlyElementsOf(plus(MEMORY, "redacted"));
        assertThat(fields(created.json().path("redacted"))).containsExactly("total", "kinds");
        assertThat(fields(created.json().path("source"))).containsExactly("kind", "reference");
        String id = created.json().path("id").asText();

        var again =
                cairn.call(
                        "POST",
                        NS + "/memories",
                        A,
                        "{\"type\":\"fact\",\"content\":\"The signing keys rotate every ninety"
                                + " days\"}");
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(fields(again.json()))
                .containsExactlyElementsOf(
                        plus(MEMORY, "deduplicatedInto", "similarity", "redacted"));

        JsonNode got = cairn.call("GET", NS + "/memories/" + id, A, null).json();
        assertThat(fields(got)).containsExactlyElementsOf(plus(MEMORY, "transitions"));

        JsonNode recalled =
                cairn.call("POST", NS + "/recall", A, "{\"query\":\"signing keys\"}").json();
        assertThat(fields(recalled))
                .containsExactly(
                        "memories",
                        "context",
                        "tokens",
                        "layers",
                        "partial",
                        "tookMs",
                        "people",
                        "facets",
                        "scope",
                        "adaptation");
        assertThat(fields(recalled.at("/memories/0")))
                .containsExactly("memory", "score", "components");
        assertThat(fields(recalled.at("/memories/0/components")))
                .containsExactly("relevance", "recency", "typeBonus", "confidence", "importance");

        // Recall bookkeeping is written behind the answer: lastRecalledAt may not be there yet,
        // and when it is, it comes right before recalledCount.
        List<String> after = fields(cairn.call("GET", NS + "/memories/" + id, A, null).json());
        if (after.contains("lastRecalledAt")) {
            assertThat(after.indexOf("lastRecalledAt"))
                    .isEqualTo(after.indexOf("recalledCount") - 1);
            after.remove("lastRecalledAt");
        }
        assertThat(after).containsExactlyElementsOf(plus(MEMORY, "transitions"));
    }

    @Test
    void appliedProposalIsTheMemoryNamingTheProposal() {
        String proposal =
                cairn.call(
                                "POST",
                                NS + "/proposals",
                                A,
                                "{\"type\":\"memory\",\"title\":\"Backups\",\"content\":\"Backups"
                                        + " run at midnight\"}")
                        .json()
                        .path("id")
                        .asText();
        cairn.call(
                "POST",
                NS + "/proposals/" + proposal + "/review",
                A,
                "{\"status\":\"accepted\",\"reviewer\":\"rita\"}");
        var applied =
                cairn.call(
                        "POST",
                        NS + "/proposals/" + proposal + "/apply",
                        A,
                        "{\"appliedBy\":\"ann\"}");
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        assertThat(fields(applied.json()))
                .containsExactlyElementsOf(plus(MEMORY, "sourceProposalId"));
    }

    @Test
    void namespaceAndTokenAnswers() {
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"shapes-two\"}");
        JsonNode namespaces = cairn.call("GET", "/v1/namespaces?limit=1", A, null).json();
        assertThat(fields(namespaces)).containsExactly("items", "total", "nextCursor");
        assertThat(fields(namespaces.at("/items/0")))
                .containsExactly("name", "description", "createdAt", "recallScope");
        var token =
                cairn.call(
                        "POST",
                        "/v1/tokens",
                        A,
                        "{\"name\":\"shaped\",\"roles\":[\"read\"],\"namespaces\":[\"shapes\"]}");
        assertThat(fields(token.json()))
                .containsExactly("name", "roles", "namespaces", "createdAt", "token");
        JsonNode tokens = cairn.call("GET", "/v1/tokens", A, null).json();
        assertThat(fields(tokens)).containsExactly("items", "total");
        assertThat(fields(tokens.at("/items/0")))
                .containsExactly("name", "roles", "namespaces", "createdAt");
    }

    @Test
    void proposalAnswersGrowWithReviewAndApply() {
        List<String> base =
                List.of("id", "type", "title", "description", "content", "taskName", "agentName");
        JsonNode policy =
                cairn.call(
                                "POST",
                                NS + "/proposals",
                                A,
                                "{\"type\":\"policy\",\"title\":\"T\",\"content\":\"Freeze on"
                                        + " Fridays\"}")
                        .json();
        assertThat(fields(policy))
                .containsExactlyElementsOf(
                        plus(base, "status", "flagged", "createdAt", "updatedAt"));
        JsonNode memory =
                cairn.call(
                                "POST",
                                NS + "/proposals",
                                A,
                                "{\"type\":\"memory\",\"title\":\"T\",\"content\":\"Releases"
                                        + " ship on Tuesdays\"}")
                        .json();
        List<String> memoryBase = plus(base, "memoryType", "suggestedTags", "status", "flagged");
        assertThat(fields(memory))
                .containsExactlyElementsOf(plus(memoryBase, "createdAt", "updatedAt"));
        String id = memory.path("id").asText();
        cairn.call(
                "POST",
                NS + "/proposals/" + id + "/review",
                A,
                "{\"status\":\"accepted\",\"reviewer\":\"rita\"}");
        cairn.call("POST", NS + "/proposals/" + id + "/apply", A, "{\"appliedBy\":\"ann\"}");
        JsonNode applied = cairn.call("GET", NS + "/proposals/" + id, A, null).json();
        assertThat(fields(applied))
                .containsExactlyElementsOf(
                        plus(
                                memoryBase,
                                "reviewer",
                                "reviewNote",
                                "reviewedAt",
                                "appliedMemoryId",
                                "appliedBy",
                                "appliedAt",
                                "createdAt",
                                "updatedAt"));
        JsonNode listed = cairn.call("GET", NS + "/proposals", A, null).json();
        assertThat(fields(listed)).containsExactly("items", "total");
    }

    @Test
    void transcriptAndExtractAnswers() {
        String conversation =
                cairn.call("POST", "/ark/shapes/conversations", A, null)
                        .json()
                        .path("conversation_id")
                        .asText();
        cairn.call(
                "POST",
                "/ark/shapes/messages",
                A,
                "{\"conversation_id\":\""
                        + conversation
                        + "\",\"query_id\":\"q\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"The deploy pipeline needs a green build\"}]}");
        JsonNode hits =
                cairn.call("POST", NS + "/transcripts/search", A, "{\"query\":\"deploy pipeline\"}")
                        .json();
        assertThat(fields(hits)).containsExactly("items", "total");
        assertThat(fields(hits.at("/items/0")))
                .containsExactly(
                        "conversationId", "messageId", "queryId", "role", "snippet", "score");

        JsonNode extracted =
                cairn.call(
                                "POST",
                                NS + "/extract",
                                A,
                                "{\"query\":\"what do I prefer?\",\"response\":\"I prefer dark"
                                        + " mode in every editor.\",\"userId\":\"u1\"}")
                        .json();
        assertThat(fields(extracted)).containsExactly("candidates");
        for (JsonNode c : extracted.path("candidates")) {
            List<String> names = fields(c);
            assertThat(names.subList(0, 5))
                    .containsExactly("type", "content", "confidence", "status", "reason");
            assertThat(names.subList(5, names.size())).isSubsetOf("memoryId", "proposalId");
        }
    }

    @Test
    void entityAnswers() {
        JsonNode listed = cairn.call("GET", NS + "/entities?q=search", A, null).json();
        assertThat(fields(listed)).containsExactly("items", "total");
        List<String> entity = List.of("id", "name", "kind", "aliases", "degree");
        assertThat(fields(listed.at("/items/0"))).containsExactlyElementsOf(entity);
        JsonNode detail = cairn.call("GET", NS + "/entities/search-cluster", A, null).json();
        assertThat(fields(detail))
                .containsExactlyElementsOf(
                        plus(entity, "mentionedBy", "relationCount", "relations"));
        JsonNode listedWithRelations =
                cairn.call("GET", NS + "/entities?q=search&relations=3", A, null).json();
        assertThat(fields(listedWithRelations.at("/items/0")))
                .containsExactlyElementsOf(
                        plus(entity, "mentionedBy", "relationCount", "relations"));
        assertThat(fields(detail.at("/relations/0")))
                .containsExactly("from", "to", "type", "weight");
        var created =
                cairn.call(
                        "POST",
                        NS + "/relations",
                        A,
                        "{\"from\":\"search-cluster\",\"to\":\"object-storage\",\"type\":"
                                + "\"depends_on\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(fields(created.json()))
                .containsExactly("from", "to", "type", "weight", "confidence");
    }

    /**
     * {@code GET /health} names the model id every vector this server writes is stored under
     * (without the precision: issue 43) and the precision it computes each kind of pass in.
     */
    @Test
    void healthNamesTheModelIdItWritesAndThePrecisionItComputesIn() {
        JsonNode model = cairn.call("GET", "/health", null, null).json().path("model");
        assertThat(model.path("id").asText()).isEqualTo("bge-small-en-v1.5");
        assertThat(model.path("precision").asText())
                .isEqualTo(cairn.components.cairn().model().precision())
                .matches("documents .+, queries .+");
        var written =
                cairn.call(
                        "POST",
                        NS + "/memories",
                        A,
                        "{\"type\":\"FACT\",\"userId\":\"u-health\",\"content\":\"The"
                                + " health page names the embedding model\"}");
        assertThat(written.status()).as(written.body()).isEqualTo(201);
        assertThat(written.json().path("embeddingModel").asText())
                .isEqualTo(model.path("id").asText());
    }

    @Test
    void healthArkAndOrlojAnswers() {
        JsonNode health = cairn.call("GET", "/health", null, null).json();
        assertThat(fields(health)).containsExactly("status", "checks", "model");
        assertThat(fields(health.at("/checks/store")))
                .containsExactly("kind", "status", "lastChangeSeq", "indexLag");
        assertThat(fields(health.path("model"))).containsExactly("id", "precision");

        JsonNode created = cairn.call("POST", "/ark/shapes/conversations", A, null).json();
        assertThat(fields(created)).containsExactly("conversation_id");
        String conversation = created.path("conversation_id").asText();
        cairn.call(
                "POST",
                "/ark/shapes/messages",
                A,
                "{\"conversation_id\":\""
                        + conversation
                        + "\",\"query_id\":\"q\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"one\"},{\"role\":\"user\",\"content\":\"two\"}]}");
        JsonNode page =
                cairn.call(
                                "GET",
                                "/ark/shapes/messages?limit=1&conversation_id=" + conversation,
                                A,
                                null)
                        .json();
        assertThat(fields(page)).containsExactly("items", "total", "hasMore", "nextCursor");
        assertThat(fields(page.at("/items/0")))
                .containsExactly("timestamp", "conversation_id", "query_id", "message", "sequence");
        JsonNode whole =
                cairn.call("GET", "/ark/shapes/conversations/" + conversation, A, null).json();
        assertThat(fields(whole)).containsExactly("conversation_id", "messages");
        assertThat(fields(cairn.call("GET", "/ark/shapes/conversations", A, null).json()))
                .containsExactly("conversations");
        JsonNode deleted =
                cairn.call("DELETE", "/ark/shapes/conversations/" + conversation, A, null).json();
        assertThat(fields(deleted)).containsExactly("status", "message");

        assertThat(
                        fields(
                                cairn.call(
                                                "POST",
                                                "/orloj/shapes/put",
                                                A,
                                                "{\"key\":\"colour\",\"value\":\"blue\"}")
                                        .json()))
                .containsExactly("status");
        assertThat(
                        fields(
                                cairn.call("POST", "/orloj/shapes/get", A, "{\"key\":\"colour\"}")
                                        .json()))
                .containsExactly("found", "key", "value");
        JsonNode found =
                cairn.call("POST", "/orloj/shapes/search", A, "{\"query\":\"blue\"}").json();
        assertThat(fields(found)).containsExactly("results");
        assertThat(fields(found.at("/results/0"))).containsExactly("key", "value", "score");
        JsonNode listed = cairn.call("POST", "/orloj/shapes/list", A, "{}").json();
        assertThat(fields(listed)).containsExactly("entries");
        assertThat(fields(listed.at("/entries/0"))).containsExactly("key", "value");
        JsonNode tool =
                cairn.call("POST", NS + "/tools/memory.search", A, "{\"query\":\"blue\"}").json();
        assertThat(fields(tool.at("/results/0"))).containsExactly("key", "value", "score");
        JsonNode written =
                cairn.call(
                                "POST",
                                NS + "/tools/memory.write",
                                A,
                                "{\"key\":\"size\",\"value\":\"large\"}")
                        .json();
        assertThat(fields(written)).containsExactlyInAnyOrder("status", "key", "flagged");
        JsonNode read =
                cairn.call("POST", NS + "/tools/memory_read", A, "{\"key\":\"size\"}").json();
        assertThat(fields(read)).containsExactly("found", "key", "value");
        JsonNode ingested =
                cairn.call(
                                "POST",
                                NS + "/tools/memory.ingest",
                                A,
                                "{\"source\":\"notes\",\"text\":\"Short notes.\"}")
                        .json();
        assertThat(fields(ingested)).containsExactlyInAnyOrder("chunks", "keys");
    }

    @Test
    void judgeAnswers() {
        List<String> judgement =
                List.of(
                        "citationCoverage",
                        "citationPrecision",
                        "contradictionRate",
                        "policyCompliance",
                        "grounded",
                        "policy",
                        "claims",
                        "violations",
                        "rules");
        var judged =
                cairn.call(
                        "POST",
                        NS + "/judge",
                        A,
                        "{\"query\":\"how often?\",\"answer\":\"Rotate the keys every ninety days"
                                + " [1].\",\"evidence\":[{\"id\":\"e1\",\"text\":\"Rotate the"
                                + " signing keys every ninety days.\"}]}");
        assertThat(judged.status()).as(judged.body()).isEqualTo(200);
        List<String> answer = new ArrayList<>(List.of("judgementId"));
        answer.addAll(judgement);
        answer.addAll(List.of("similarity", "createdAt"));
        assertThat(fields(judged.json())).containsExactlyElementsOf(answer);

        JsonNode stored =
                cairn.call(
                                "GET",
                                NS + "/judgements/" + judged.json().path("judgementId").asText(),
                                A,
                                null)
                        .json();
        List<String> full =
                new ArrayList<>(
                        List.of(
                                "judgementId",
                                "answerId",
                                "traceId",
                                "query",
                                "answer",
                                "evidence",
                                "plan"));
        full.addAll(judgement);
        full.addAll(List.of("similarity", "createdAt"));
        assertThat(fields(stored)).containsExactlyElementsOf(full);

        JsonNode builtIn = cairn.call("GET", NS + "/policies/default", A, null).json();
        assertThat(fields(builtIn)).containsExactly("name", "builtIn", "rules");
        assertThat(fields(builtIn.at("/rules/0"))).containsExactly("name", "kind", "weight");
        var put =
                cairn.call(
                        "PUT",
                        NS + "/policies/strict",
                        A,
                        "rules:\n  - {kind: max-length, max-chars: 500}\n",
                        "application/yaml");
        assertThat(put.status()).as(put.body()).isEqualTo(201);
        assertThat(fields(put.json()))
                .containsExactly("name", "builtIn", "rules", "document", "updatedAt");
        JsonNode policies = cairn.call("GET", NS + "/policies", A, null).json();
        assertThat(fields(policies)).containsExactly("items", "total");
        assertThat(policies.at("/items/0/name").asText()).isEqualTo("default");
        assertThat(policies.at("/items/1/name").asText()).isEqualTo("strict");
        assertThat(fields(policies.at("/items/1")))
                .containsExactly("name", "builtIn", "rules", "updatedAt");
    }
}
