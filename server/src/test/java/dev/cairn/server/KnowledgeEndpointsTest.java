package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.server.http.Json;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Documents, retrieve and traces over HTTP, including bad input. */
@RoutingTest
class KnowledgeEndpointsTest {

    @TempDir static Path dataDir;
    static RoutedCairn cairn;
    static final String A = CairnCalls.ADMIN;

    static final String RUNBOOK =
            """
            ---
            id: queue-drain
            title: Drain the payments queue
            authority: authoritative
            tags: [payments]
            ---
            # Drain the payments queue

            Pause the producers, wait until the consumer lag reaches zero, then restart the workers.
            """;

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        cairn =
                RoutedCairn.open(
                        ServerSettings.defaults(dataDir)
                                .withPort(0)
                                .withAdminToken(A)
                                .withRetrieval(
                                        dev.cairn.retrieval.RetrievalConfig.defaults()
                                                .withMaxDocumentBytes(4096)
                                                // a busy test machine must not turn a
                                                // signal into a timeout here
                                                .withTimeouts(
                                                        java.time.Duration.ofSeconds(30),
                                                        java.time.Duration.ofSeconds(30),
                                                        java.time.Duration.ofSeconds(30))),
                        routing);
    }

    @BeforeAll
    static void start(DirectClient client) {
        cairn.connect(client);
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"ops\"}");
        var created = cairn.call("POST", "/v1/namespaces/ops/documents", A, document(RUNBOOK));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    static String document(String content) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("content", content);
        body.put("format", "markdown");
        return body.toString();
    }

    @Test
    void createdDocumentIsListedAndReadableWithItsChunks() {
        var listed = cairn.call("GET", "/v1/namespaces/ops/documents", A, null).json();
        assertThat(listed.path("items").findValuesAsText("id")).contains("queue-drain");
        var doc = cairn.call("GET", "/v1/namespaces/ops/documents/queue-drain", A, null);
        assertThat(doc.status()).isEqualTo(200);
        assertThat(doc.json().path("authority").asText()).isEqualTo("authoritative");
        assertThat(doc.json().path("chunks")).isNotEmpty();
        assertThat(doc.json().at("/chunks/0/heading").asText())
                .isEqualTo("Drain the payments queue");
    }

    @Test
    void sameIdAgainReplacesTheDocumentWithANewVersion() {
        cairn.call(
                "POST",
                "/v1/namespaces/ops/documents",
                A,
                document(RUNBOOK.replace("queue-drain", "twice")));
        var second =
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/documents",
                        A,
                        document(
                                RUNBOOK.replace("queue-drain", "twice")
                                        .replace("restart the workers", "resume the producers")));
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.json().path("version").asLong()).isEqualTo(2);
        var doc = cairn.call("GET", "/v1/namespaces/ops/documents/twice", A, null).json();
        assertThat(doc.path("content").asText())
                .contains("resume the producers")
                .doesNotContain("restart the workers");
    }

    @Test
    void retrieveAnswersInTheApiShapeAndTheTraceCanBeFetched() {
        var response =
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/retrieve?trace=true",
                        A,
                        "{\"query\":\"how do I drain the payments queue\",\"topK\":3}");
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        JsonNode answer = response.json();
        assertThat(answer.at("/hits/0/documentId").asText()).isEqualTo("queue-drain");
        assertThat(answer.at("/hits/0/ranks/lexical").asInt()).isEqualTo(1);
        assertThat(answer.at("/hits/0/ranks/dense").asInt()).isEqualTo(1);
        assertThat(answer.path("trace")).isNotEmpty();
        assertThat(answer.at("/evidence/authoritative/0").asText())
                .isEqualTo(answer.at("/hits/0/chunkId").asText());
        assertThat(answer.path("grounding").asDouble()).isBetween(0.0, 1.0);
        assertThat(answer.path("plan").asText()).isIn("direct", "scoped", "defer");
        assertThat(answer.path("timings").fieldNames())
                .toIterable()
                .contains("lexicalMs", "denseMs", "graphMs", "fusionMs", "totalMs");

        var trace =
                cairn.call(
                        "GET",
                        "/v1/namespaces/ops/traces/" + answer.path("traceId").asText(),
                        A,
                        null);
        assertThat(trace.status()).isEqualTo(200);
        assertThat(trace.json().path("query").asText())
                .isEqualTo("how do I drain the payments queue");
        assertThat(trace.json().at("/trace/0/text").asText()).contains("consumer lag");
    }

    @Test
    void metadataValuesOfAnyJsonTypeAreStoredAsText() {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("content", "# Meta\n\ntext");
        body.put("id", "meta");
        ObjectNode meta = body.putObject("metadata");
        meta.put("owner", "ops");
        meta.put("pages", 3);
        meta.putNull("reviewer");
        var created = cairn.call("POST", "/v1/namespaces/ops/documents", A, body.toString());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        JsonNode stored =
                cairn.call("GET", "/v1/namespaces/ops/documents/meta", A, null)
                        .json()
                        .path("metadata");
        assertThat(stored.path("owner").asText()).isEqualTo("ops");
        assertThat(stored.path("pages").asText()).isEqualTo("3");
        assertThat(stored.path("reviewer").asText()).isEqualTo("null");
    }

    @Test
    void retrieveFiltersByMetadataAsStoredTextAndRefusesAnEmptyValueList() {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("content", "# Drain the billing queue\n\nPause the billing producers first.");
        body.put("id", "billing-drain");
        body.putObject("metadata").put("team", "billing").put("pages", 2);
        var created = cairn.call("POST", "/v1/namespaces/ops/documents", A, body.toString());
        assertThat(created.status()).as(created.body()).isEqualTo(201);

        var filtered = retrieveFiltered("{\"team\":[\"billing\",\"search\"],\"pages\":[\"2\"]}");
        assertThat(filtered.status()).as(filtered.body()).isEqualTo(200);
        assertThat(filtered.json().path("hits").findValuesAsText("documentId"))
                .isNotEmpty()
                .containsOnly("billing-drain");
        assertThat(
                        retrieveFiltered("{\"team\":[\"billing\"],\"pages\":[\"3\"]}")
                                .json()
                                .path("hits"))
                .isEmpty();

        var empty = retrieveFiltered("{\"team\":[]}");
        assertThat(empty.status()).isEqualTo(400);
        assertThat(empty.json().path("detail").asText())
                .isEqualTo("metadata filter 'team' lists no value, must list at least one");
        var notAList = retrieveFiltered("{\"team\":7}");
        assertThat(notAList.status()).isEqualTo(400);
        assertThat(notAList.json().path("detail").asText()).contains("filters.metadata.team");
    }

    /** {@code POST retrieve} of "drain the queue" with {@code filters.metadata} as given. */
    private static CairnCalls.Response retrieveFiltered(String metadata) {
        return cairn.call(
                "POST",
                "/v1/namespaces/ops/retrieve",
                A,
                "{\"query\":\"drain the queue\",\"filters\":{\"metadata\":" + metadata + "}}");
    }

    @Test
    void deletedDocumentIsGoneAndDeletingAgainIsNotFound() {
        cairn.call(
                "POST",
                "/v1/namespaces/ops/documents",
                A,
                document(RUNBOOK.replace("queue-drain", "short-lived")));
        assertThat(
                        cairn.call("DELETE", "/v1/namespaces/ops/documents/short-lived", A, null)
                                .status())
                .isEqualTo(204);
        assertThat(cairn.call("GET", "/v1/namespaces/ops/documents/short-lived", A, null).status())
                .isEqualTo(404);
        assertThat(
                        cairn.call("DELETE", "/v1/namespaces/ops/documents/short-lived", A, null)
                                .status())
                .isEqualTo(404);
    }

    @Test
    void emptyQueryIsABadRequest() {
        assertProblem(
                cairn.call("POST", "/v1/namespaces/ops/retrieve", A, "{\"query\":\"   \"}"),
                400,
                "query must not be empty");
    }

    @Test
    void topKAboveTheLimitIsABadRequest() {
        assertProblem(
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/retrieve",
                        A,
                        "{\"query\":\"x\",\"topK\":1001}"),
                400,
                "topK");
    }

    @Test
    void unknownNamespaceIsNotFound() {
        assertProblem(
                cairn.call("POST", "/v1/namespaces/nowhere/retrieve", A, "{\"query\":\"x\"}"),
                404,
                "nowhere");
    }

    @Test
    void documentOverTheLimitIsTooLargeAndNamesTheLimit() {
        var response =
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/documents",
                        A,
                        document("# Big\n\n" + "word ".repeat(2000)));
        assertProblem(response, 413, "4096");
    }

    @Test
    void binaryContentIsABadRequest() {
        var response =
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/documents",
                        A,
                        document("# Bin\n\nabc\u0000def"));
        assertProblem(response, 400, "");
    }

    @Test
    void malformedFrontMatterIsABadRequestNamingTheLine() {
        var response =
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/documents",
                        A,
                        document("---\ntitle: ok\ntags: [unclosed\n---\n# Body\n\ntext"));
        assertProblem(response, 400, "line");
        assertThat(
                        cairn.call("GET", "/v1/namespaces/ops/documents", A, null)
                                .json()
                                .path("items")
                                .findValuesAsText("title"))
                .doesNotContain("ok");
    }

    @Test
    void unknownAuthorityIsABadRequestNamingTheAllowedValues() {
        ObjectNode body =
                (ObjectNode)
                        Json.MAPPER
                                .createObjectNode()
                                .put("content", "# T\n\ntext")
                                .put("authority", "gospel");
        assertProblem(
                cairn.call("POST", "/v1/namespaces/ops/documents", A, body.toString()),
                400,
                "authoritative, supporting, unverified");
    }

    @Test
    void readOnlyTokenCannotWriteDocuments() {
        var token =
                cairn.call(
                        "POST",
                        "/v1/tokens",
                        A,
                        "{\"name\":\"ops-reader\",\"roles\":[\"read\"],\"namespaces\":[\"ops\"]}");
        String secret = token.json().path("token").asText();
        assertThat(
                        cairn.call(
                                        "POST",
                                        "/v1/namespaces/ops/retrieve",
                                        secret,
                                        "{\"query\":\"drain\"}")
                                .status())
                .isEqualTo(200);
        assertProblem(
                cairn.call("POST", "/v1/namespaces/ops/documents", secret, document(RUNBOOK)),
                403,
                "write");
    }

    private static void assertProblem(CairnCalls.Response response, int status, String detailPart) {
        assertThat(response.status()).as(response.body()).isEqualTo(status);
        assertThat(response.contentType()).isEqualTo("application/problem+json");
        assertThat(response.json().path("detail").asText()).contains(detailPart);
        assertThat(response.body()).doesNotContain("Exception").doesNotContain("\tat ");
    }
}
