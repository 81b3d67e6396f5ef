package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The /v1 API's strict request bodies through the production routing: an unknown field is a 400
 * naming it and the known ones, every binding problem a plain-language 400, while the ARK and Orloj
 * mounts keep accepting the fields their clients add.
 */
@RoutingTest
class StrictBodiesEndpointTest {

    static final String A = CairnCalls.ADMIN;
    static final String NS = "/v1/namespaces/strict";

    @TempDir static Path dataDir;
    static RoutedCairn cairn;
    static String memoryId;

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        cairn = RoutedCairn.open(dataDir, routing);
    }

    @BeforeAll
    static void start(DirectClient client) {
        cairn.connect(client);
        assertThat(
                        cairn.call(
                                        "POST",
                                        "/v1/namespaces",
                                        A,
                                        "{\"name\":\"strict\",\"recallScope\":\"namespace\"}")
                                .status())
                .isEqualTo(201);
        var memory =
                cairn.call(
                        "POST",
                        NS + "/memories",
                        A,
                        "{\"type\":\"fact\",\"content\":\"The build runs on Java 25\"}");
        assertThat(memory.status()).as(memory.body()).isEqualTo(201);
        memoryId = memory.json().path("id").asText();
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    @Test
    void retrieveWithSnakeCaseTopKNamesTheFieldAndTheKnownOnes() {
        var r = cairn.call("POST", NS + "/retrieve", A, "{\"query\":\"x\",\"top_k\":1}");
        String detail = assertBadRequest(r);
        assertThat(detail)
                .isEqualTo(
                        "unknown field 'top_k'; known fields: query, topK, candidates, weights,"
                                + " k, fusion, filters, explain, trace, userId");
    }

    @Test
    void unknownNestedFieldIsNamedWithItsPath() {
        var r =
                cairn.call(
                        "POST",
                        NS + "/retrieve",
                        A,
                        "{\"query\":\"x\",\"weights\":{\"bm25\":1},\"filters\":{}}");
        assertThat(assertBadRequest(r))
                .isEqualTo("unknown field 'weights.bm25'; known fields: lexical, dense, graph");
        var judge =
                cairn.call(
                        "POST",
                        NS + "/judge",
                        A,
                        "{\"answer\":\"a\",\"evidence\":[{\"id\":\"e1\",\"text\":\"t\",\"score\":1}]}");
        assertThat(assertBadRequest(judge))
                .isEqualTo(
                        "unknown field 'evidence[0].score'; known fields: id, text, title, authority");
    }

    @Test
    void memoryWriteWithAnUnknownFieldIsRefusedAndStoresNothing() {
        var r =
                cairn.call(
                        "POST",
                        NS + "/memories",
                        A,
                        "{\"type\":\"fact\",\"content\":\"Deploys freeze on Fridays\",\"user_id\":\"u\"}");
        assertThat(assertBadRequest(r))
                .startsWith("unknown field 'user_id'; known fields: type, content, layer, tags,")
                .contains("userId");
        var listed = cairn.call("GET", NS + "/memories?q=Fridays", A, null);
        assertThat(listed.json().path("total").asInt()).isZero();
    }

    @Test
    void memoryUpdateWithAnUnknownFieldIsRefused() {
        var r = cairn.call("PUT", NS + "/memories/" + memoryId, A, "{\"text\":\"new\"}");
        assertThat(assertBadRequest(r))
                .isEqualTo(
                        "unknown field 'text'; known fields: content, type, layer, tags,"
                                + " confidence, importance, conflictKey, status");
    }

    @Test
    void recallWithAnUnknownFieldIsRefused() {
        var r = cairn.call("POST", NS + "/recall", A, "{\"query\":\"java\",\"max_tokens\":10}");
        assertThat(assertBadRequest(r))
                .startsWith("unknown field 'max_tokens'; known fields: query, userId, agentId,")
                .contains("maxTokens");
    }

    @Test
    void absentOptionalFieldsTakeTheirDefaults() {
        var r = cairn.call("POST", NS + "/recall", A, "{\"query\":\"java build\"}");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().path("memories").findValuesAsText("id")).contains(memoryId);
        var retrieve = cairn.call("POST", NS + "/retrieve", A, "{\"query\":\"java\"}");
        assertThat(retrieve.status()).as(retrieve.body()).isEqualTo(200);
        assertThat(retrieve.json().has("trace")).isFalse();
    }

    @Test
    void wrongTypesNameTheFieldAndWhatItMustBe() {
        assertThat(
                        assertBadRequest(
                                cairn.call(
                                        "POST",
                                        NS + "/retrieve",
                                        A,
                                        "{\"query\":\"x\",\"topK\":\"5\"}")))
                .isEqualTo("field 'topK' must be an integer, got a string");
        assertThat(
                        assertBadRequest(
                                cairn.call(
                                        "POST",
                                        NS + "/recall",
                                        A,
                                        "{\"query\":\"x\",\"limit\":2.5}")))
                .isEqualTo("field 'limit' must be an integer, got a number with a fraction");
        assertThat(
                        assertBadRequest(
                                cairn.call(
                                        "POST",
                                        NS + "/memories",
                                        A,
                                        "{\"type\":\"fact\",\"content\":\"x\",\"tags\":\"a\"}")))
                .isEqualTo("field 'tags' must be an array, got a string");
        assertThat(
                        assertBadRequest(
                                cairn.call(
                                        "POST",
                                        NS + "/proposals",
                                        A,
                                        "{\"type\":\"memory\",\"title\":1,\"content\":\"c\"}")))
                .isEqualTo("field 'title' must be a string, got an integer");
    }

    @Test
    void contentAfterTheJsonValueIsRefused() {
        var r = cairn.call("POST", NS + "/retrieve", A, "{\"query\":\"x\"}{\"query\":\"y\"}");
        assertThat(assertBadRequest(r)).startsWith("unexpected content after the JSON value");
    }

    @Test
    void arkKeepsAcceptingFieldsItsClientsAdd() {
        String conversation =
                cairn.call("POST", "/ark/strict/conversations", A, null)
                        .json()
                        .path("conversation_id")
                        .asText();
        var r =
                cairn.call(
                        "POST",
                        "/ark/strict/messages",
                        A,
                        "{\"conversation_id\":\""
                                + conversation
                                + "\",\"query_id\":\"q\",\"session_id\":\"s\",\"messages\":"
                                + "[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
    }

    @Test
    void orlojKeepsAcceptingFieldsItsClientsAdd() {
        var r =
                cairn.call(
                        "POST",
                        "/orloj/strict/put",
                        A,
                        "{\"key\":\"k\",\"value\":\"v\",\"agent\":\"a\"}");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        var search = cairn.call("POST", "/orloj/strict/search", A, "{\"query\":\"v\",\"top_k\":1}");
        assertThat(search.status()).as(search.body()).isEqualTo(200);
    }

    static Stream<Arguments> badBodies() {
        String deep = "{\"query\":" + "[".repeat(1100) + "]".repeat(1100) + "}";
        return Stream.of(
                Arguments.of("POST", NS + "/retrieve", "{\"query\": "),
                Arguments.of("POST", NS + "/retrieve", "{\"query\":\"x\"} trailing"),
                Arguments.of("POST", NS + "/retrieve", deep),
                Arguments.of("POST", NS + "/retrieve", "{\"query\":\"x\",\"query\":\"y\"}"),
                Arguments.of("POST", NS + "/retrieve", "{\"query\":\"x\",\"topK\":1e400}"),
                Arguments.of("POST", NS + "/retrieve", "{\"query\":\"x\",\"topK\":99999999999}"),
                Arguments.of("POST", NS + "/retrieve", "{\"query\":\"x\",\"fusion\":\"mean\"}"),
                Arguments.of("POST", NS + "/retrieve", "{\"query\":\"x\",\"filters\":[]}"),
                Arguments.of("POST", NS + "/retrieve", "[]"),
                Arguments.of("POST", NS + "/recall", "{\"query\":\"x\",\"types\":[null]}"),
                Arguments.of("POST", NS + "/recall", "{\"query\":\"x\",\"mode\":7}"),
                Arguments.of("POST", NS + "/memories", "{\"type\":\"fact\",\"content\":{}}"),
                Arguments.of(
                        "POST", NS + "/memories", "{\"type\":\"fact\",\"content\":\"a\u0001\"}"),
                Arguments.of("POST", NS + "/documents", "{\"content\":\"# x\",\"metadata\":[]}"),
                Arguments.of("POST", NS + "/judge", "{\"answer\":\"a\",\"evidence\":{}}"),
                Arguments.of("POST", NS + "/proposals", "{\"type\":\"memory\",\"extra\":true}"),
                Arguments.of("POST", NS + "/relations", "{\"from\":\"a\",\"confidence\":\"high\"}"),
                Arguments.of("POST", NS + "/extract", "{\"query\":\"q\",\"response\":[]}"),
                Arguments.of(
                        "POST", NS + "/transcripts/search", "{\"query\":\"q\",\"limit\":\"3\"}"),
                Arguments.of("POST", NS + "/tools/retrieve", "{\"query\":\"q\",\"top_k\":3}"),
                Arguments.of("POST", NS + "/tools/memory.write", "{\"key\":\"k\",\"val\":\"v\"}"),
                Arguments.of("POST", NS + "/tools/memory.search", "{\"query\":\"q\",\"topK\":3}"),
                Arguments.of("POST", NS + "/tools/remember", "{\"content\":\"c\",\"tags\":\"a\"}"),
                Arguments.of("POST", NS + "/memories/" + "m" + "/disable", "{\"why\":\"x\"}"),
                Arguments.of("POST", "/v1/namespaces", "{\"name\":\"n\",\"label\":\"x\"}"),
                Arguments.of("POST", "/v1/tokens", "{\"name\":\"t\",\"roles\":\"read\"}"));
    }

    @ParameterizedTest
    @MethodSource("badBodies")
    void everyBadBodyIsAPlainLanguageBadRequest(String method, String path, String body) {
        String detail = assertBadRequest(cairn.call(method, path, A, body));
        assertThat(detail)
                .doesNotContainIgnoringCase("jackson")
                .doesNotContain("com.fasterxml")
                .doesNotContain("StreamReadConstraints")
                .doesNotContain("Feature")
                .doesNotContain("`")
                .doesNotContain("Exception")
                .doesNotContain("dev.cairn")
                .doesNotContain("()")
                .doesNotContain("[Source");
    }

    /** Asserts a 400 problem and answers its detail. */
    private static String assertBadRequest(CairnCalls.Response r) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.contentType()).isEqualTo("application/problem+json");
        JsonNode problem = r.json();
        assertThat(problem.path("status").asInt()).isEqualTo(400);
        assertThat(problem.path("title").asText()).isEqualTo("Bad Request");
        return problem.path("detail").asText();
    }
}
