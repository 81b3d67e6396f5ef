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
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST/GET feedback}, {@code POST adaptation/train} and {@code GET/DELETE adaptation}
 * through the production routing: shapes, validation as problem+json, roles, and the retrieve
 * answer's {@code adaptation}.
 */
@RoutingTest
class FeedbackEndpointsTest {

    static final String A = CairnCalls.ADMIN;
    static final String NS = "/v1/namespaces/ops";

    static final Map<String, String> RUNBOOKS =
            Map.of(
                    "ledger-promote", "Promote the ledger database replica with pg_ctl promote.",
                    "cache-flush", "Flush the redis session cache with FLUSHDB at low traffic.",
                    "cert-rotate", "Rotate the TLS certificates of the ingress before they expire.",
                    "disk-full", "Free disk space on a full node by pruning old container images.",
                    "dns-outage", "Fail DNS resolution over to the secondary resolvers.");

    @TempDir static Path dataDir;
    static RoutedCairn cairn;
    static String writer;

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        cairn = RoutedCairn.open(dataDir, routing);
    }

    @BeforeAll
    static void start(DirectClient client) {
        cairn.connect(client);
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"ops\"}");
        RUNBOOKS.forEach(
                (id, text) -> {
                    ObjectNode doc = Json.MAPPER.createObjectNode();
                    doc.put("id", id);
                    doc.put("content", "# " + id + "\n\n" + text);
                    var created = cairn.call("POST", NS + "/documents", A, doc.toString());
                    assertThat(created.status()).as(created.body()).isEqualTo(201);
                });
        writer =
                cairn.call(
                                "POST",
                                "/v1/tokens",
                                A,
                                "{\"name\":\"ops-writer\",\"roles\":[\"write\"],\"namespaces\":[\"ops\"]}")
                        .json()
                        .path("token")
                        .asText();
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    @Test
    void feedbackIsRecordedWithIdsAndReadBackInPages() {
        var posted =
                cairn.call(
                        "POST",
                        NS + "/feedback",
                        writer,
                        "{\"query\":\"rotate certificates\",\"source\":\"evaluator\",\"relevant\":["
                                + "{\"documentId\":\"cert-rotate\",\"grade\":2},"
                                + "{\"chunkId\":\"dns-outage#0\",\"grade\":0},"
                                + "{\"memoryId\":\"mem_00000000000000000001\"}]}");

        assertThat(posted.status()).as(posted.body()).isEqualTo(201);
        JsonNode answer = posted.json();
        assertThat(answer.path("recorded").asInt()).isEqualTo(3);
        JsonNode first = answer.at("/items/0");
        assertThat(first.path("id").asText()).startsWith("fb_");
        assertThat(first.path("documentId").asText()).isEqualTo("cert-rotate");
        assertThat(first.has("chunkId")).isFalse();
        assertThat(first.path("grade").asInt()).isEqualTo(2);
        assertThat(first.path("source").asText()).isEqualTo("evaluator");
        assertThat(answer.at("/items/2/grade").asInt()).isEqualTo(1);

        var page = cairn.call("GET", NS + "/feedback?limit=2", writer, null).json();
        assertThat(page.path("items")).hasSize(2);
        assertThat(page.path("total").asLong()).isGreaterThanOrEqualTo(3);
        String cursor = page.path("nextCursor").asText();
        assertThat(cursor).isNotEmpty();
        var next = cairn.call("GET", NS + "/feedback?limit=2&cursor=" + cursor, writer, null);
        assertThat(next.status()).isEqualTo(200);
        assertThat(next.json().at("/items/0/id").asText())
                .isLessThan(page.at("/items/1/id").asText());
    }

    @Test
    void badFeedbackIsAProblemThatSaysWhat() {
        assertProblem(post("{\"query\":\"q\",\"relevant\":[]}"), 400, "field 'relevant'");
        assertProblem(
                post("{\"query\":\" \",\"relevant\":[{\"documentId\":\"a\"}]}"), 400, "'query'");
        assertProblem(
                post("{\"query\":\"q\",\"relevant\":[{\"documentId\":\"a\",\"chunkId\":\"a#0\"}]}"),
                400,
                "exactly one of documentId, chunkId, memoryId");
        assertProblem(
                post("{\"query\":\"q\",\"relevant\":[{\"documentId\":\"a\",\"grade\":9}]}"),
                400,
                "illegal grade: 9");
        assertProblem(
                post("{\"query\":\"q\",\"relevant\":[{\"documentId\":\"a\\u200bb\"}]}"),
                400,
                "illegal documentId");
        assertProblem(
                post(
                        "{\"query\":\"q\",\"source\":\"qrels\",\"relevant\":[{\"documentId\":\"a\"}]}"),
                400,
                "unknown source: 'qrels'");
        assertProblem(
                post("{\"query\":\"q\",\"relevant\":[{\"documentId\":\"a\",\"relevance\":1}]}"),
                400,
                "relevance");
        assertProblem(
                cairn.call(
                        "POST",
                        "/v1/namespaces/nowhere/feedback",
                        A,
                        "{\"query\":\"q\",\"relevant\":[{\"documentId\":\"a\"}]}"),
                404,
                "nowhere");
    }

    @Test
    void adaptationNeedsAdminAndJudgedQueries() {
        assertProblem(cairn.call("POST", NS + "/adaptation/train", writer, "{}"), 403, "admin");
        assertProblem(cairn.call("GET", NS + "/adaptation", writer, null), 403, "admin");
        assertProblem(
                cairn.call("POST", NS + "/adaptation/train", A, "{\"holdOut\":1.5}"),
                400,
                "illegal holdOut: 1.5");
        var none = cairn.call("GET", NS + "/adaptation", A, null);
        assertThat(none.status()).isEqualTo(200);
        assertThat(none.json().path("active").isNull()).isTrue();
        assertProblem(
                cairn.call("DELETE", NS + "/adaptation", A, null), 404, "no active adaptation");
    }

    @Test
    void trainingThatCannotBeatTheHeldBackRankingIsRejectedAndRetrieveSaysNoAdaptation() {
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"tune\"}");
        RUNBOOKS.forEach(
                (id, text) -> {
                    ObjectNode doc = Json.MAPPER.createObjectNode();
                    doc.put("id", id);
                    doc.put("content", "# " + id + "\n\n" + text);
                    cairn.call("POST", "/v1/namespaces/tune/documents", A, doc.toString());
                });
        assertProblem(
                cairn.call("POST", "/v1/namespaces/tune/adaptation/train", A, null),
                409,
                "judged queries");
        RUNBOOKS.forEach(
                (id, text) ->
                        cairn.call(
                                "POST",
                                "/v1/namespaces/tune/feedback",
                                A,
                                "{\"query\":\""
                                        + text.replace(".", "")
                                        + "\",\"relevant\":[{\"documentId\":\""
                                        + id
                                        + "\"}]}"));

        var trained = cairn.call("POST", "/v1/namespaces/tune/adaptation/train", A, null);

        assertThat(trained.status()).as(trained.body()).isEqualTo(201);
        JsonNode t = trained.json();
        assertThat(t.path("version").asInt()).isEqualTo(1);
        assertThat(t.path("state").asText()).isEqualTo("rejected");
        assertThat(t.at("/report/baselineNdcg10").asDouble()).isEqualTo(1.0);
        assertThat(t.at("/report/activated").asBoolean()).isFalse();
        assertThat(t.has("matrix")).isFalse();
        var state = cairn.call("GET", "/v1/namespaces/tune/adaptation", A, null).json();
        assertThat(state.path("active").isNull()).isTrue();
        assertThat(state.at("/versions/0/state").asText()).isEqualTo("rejected");
        var retrieved =
                cairn.call(
                        "POST",
                        "/v1/namespaces/tune/retrieve",
                        A,
                        "{\"query\":\"flush the session cache\"}");
        assertThat(retrieved.json().path("adaptation").toString()).isEqualTo("{\"applied\":false}");
    }

    @Test
    void recallsAdaptationIsTrainedFromMemoryJudgmentsAndKeptApartFromRetrieves() {
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"recall-tune\"}");
        String base = "/v1/namespaces/recall-tune";
        assertProblem(
                cairn.call("GET", base + "/adaptation?subject=chunks", A, null),
                400,
                "unknown subject: 'chunks', must be one of documents, memories");
        assertProblem(
                cairn.call("GET", base + "/adaptation?subjects=memories", A, null),
                400,
                "unknown query parameter 'subjects'");
        assertProblem(
                cairn.call("POST", base + "/adaptation/train", A, "{\"subject\":\"memories\"}"),
                409,
                "judged queries with a relevant memory");
        RUNBOOKS.forEach(
                (id, text) -> {
                    String memoryId =
                            cairn.call(
                                            "POST",
                                            base + "/memories",
                                            A,
                                            "{\"content\":\"" + text + "\",\"type\":\"fact\"}")
                                    .json()
                                    .path("id")
                                    .asText();
                    var judged =
                            cairn.call(
                                    "POST",
                                    base + "/feedback",
                                    A,
                                    "{\"query\":\""
                                            + text.replace(".", "")
                                            + "\",\"relevant\":[{\"memoryId\":\""
                                            + memoryId
                                            + "\"}]}");
                    assertThat(judged.status()).as(judged.body()).isEqualTo(201);
                });

        var trained =
                cairn.call("POST", base + "/adaptation/train", A, "{\"subject\":\"memories\"}");

        assertThat(trained.status()).as(trained.body()).isEqualTo(201);
        // five judged questions, one memory each: one held back with its memory, four trained on
        assertThat(trained.json().at("/report/trainQueries").asInt()).isEqualTo(4);
        assertThat(trained.json().at("/report/heldOutQueries").asInt()).isEqualTo(1);
        assertThat(trained.json().at("/report/unseenDocuments/queries").asInt()).isEqualTo(1);
        // the held-back question finds its memory first already (nDCG@10 1.0): nothing to win
        assertThat(trained.json().at("/report/baselineNdcg10").asDouble()).isEqualTo(1.0);
        assertThat(trained.json().path("state").asText()).isEqualTo("rejected");
        var memories = cairn.call("GET", base + "/adaptation?subject=memories", A, null).json();
        assertThat(memories.at("/versions/0/version").asInt()).isEqualTo(1);
        assertThat(memories.at("/versions/0/state").asText())
                .isEqualTo(trained.json().path("state").asText());
        // retrieve's adaptations are another list, and documents are the default subject
        assertThat(cairn.call("GET", base + "/adaptation", A, null).json().path("versions"))
                .isEmpty();
        assertThat(
                        cairn.call("GET", base + "/adaptation?subject=documents", A, null)
                                .json()
                                .path("versions"))
                .isEmpty();
        var recalled =
                cairn.call(
                        "POST",
                        base + "/recall",
                        A,
                        "{\"query\":\"flush the session cache\",\"scope\":\"namespace\"}");
        assertThat(recalled.status()).as(recalled.body()).isEqualTo(200);
        assertThat(recalled.json().path("adaptation").toString()).isEqualTo("{\"applied\":false}");
        assertProblem(
                cairn.call("DELETE", base + "/adaptation?subject=memories", A, null),
                404,
                "no active adaptation");
    }

    static CairnCalls.Response post(String body) {
        return cairn.call("POST", NS + "/feedback", writer, body);
    }

    static void assertProblem(CairnCalls.Response response, int status, String detailPart) {
        assertThat(response.status()).as(response.body()).isEqualTo(status);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().path("detail").asText()).contains(detailPart);
    }
}
