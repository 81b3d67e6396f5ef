package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.server.http.Json;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The judge over HTTP: scores, policies, traces, persistence and bad input. */
@RoutingTest
class JudgeEndpointTest {

    @TempDir static Path dataDir;
    static RoutedCairn cairn;
    static final String A = CairnCalls.ADMIN;

    static final String RUNBOOK =
            """
            ---
            id: queue-drain
            title: Drain the payments queue
            authority: authoritative
            ---
            # Drain the payments queue

            Pause the producers, wait until the consumer lag reaches zero, then restart the workers.
            """;

    static final String LIMIT = "The payments API allows 100 requests per minute for each client.";
    static final String BACKOFF = "Failed requests are retried with exponential backoff.";
    static final String AUDIT = "Deleting a namespace does not remove its audit log.";

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        cairn =
                RoutedCairn.open(
                        ServerSettings.defaults(dataDir)
                                .withPort(0)
                                .withAdminToken(A)
                                .withRetrieval(
                                        dev.cairn.retrieval.RetrievalConfig.defaults()
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
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"elsewhere\"}");
        ObjectNode doc = Json.MAPPER.createObjectNode();
        doc.put("content", RUNBOOK);
        doc.put("format", "markdown");
        var created = cairn.call("POST", "/v1/namespaces/ops/documents", A, doc.toString());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    static ObjectNode request(String answer, String... evidenceTexts) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("query", "how does the payments API behave?");
        body.put("answer", answer);
        ArrayNode evidence = body.putArray("evidence");
        for (int i = 0; i < evidenceTexts.length; i++) {
            ObjectNode e = evidence.addObject();
            e.put("id", "e" + (i + 1));
            e.put("text", evidenceTexts[i]);
        }
        return body;
    }

    static JsonNode retrieve(String query) {
        var response =
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/retrieve",
                        A,
                        Json.MAPPER.createObjectNode().put("query", query).toString());
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return response.json();
    }

    static JsonNode judge(ObjectNode body) {
        var response = cairn.call("POST", "/v1/namespaces/ops/judge", A, body.toString());
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return response.json();
    }

    @Test
    void answerFullySupportedByItsCitedEvidenceHasFullCoverageAndNoContradiction() {
        JsonNode j =
                judge(
                        request(
                                "The payments API allows 100 requests per minute for each client"
                                        + " [1]. Failed requests are retried with exponential"
                                        + " backoff [2].",
                                LIMIT,
                                BACKOFF));

        assertThat(j.path("citationCoverage").asDouble()).as(j.toString()).isEqualTo(1.0);
        assertThat(j.path("citationPrecision").asDouble()).isEqualTo(1.0);
        assertThat(j.path("contradictionRate").asDouble()).isEqualTo(0.0);
        assertThat(j.path("grounded").asBoolean()).isTrue();
        assertThat(j.path("judgementId").asText()).startsWith("jdg_");
        assertThat(j.path("claims")).hasSize(2);
        assertThat(j.at("/claims/0/citations/0").asText()).isEqualTo("e1");
        assertThat(j.at("/claims/1/supported").asBoolean()).isTrue();
        assertThat(j.path("rules").findValuesAsText("rule")).contains("no-secrets");
        assertThat(j.path("violations")).isEmpty();
    }

    @Test
    void paraphrasedAnswerIsSupportedThroughTheBertSimilarity() {
        JsonNode j =
                judge(
                        request(
                                "Each client may send the payments API up to 100 requests every"
                                        + " minute [1].",
                                LIMIT));

        assertThat(j.path("similarity").asText()).startsWith("embedding-");
        assertThat(j.path("citationCoverage").asDouble()).as(j.toString()).isEqualTo(1.0);
        assertThat(j.path("contradictionRate").asDouble()).isEqualTo(0.0);
    }

    @Test
    void answerThatFlipsANumberIsContradicted() {
        JsonNode j =
                judge(
                        request(
                                "The payments API allows 500 requests per minute for each client"
                                        + " [1].",
                                LIMIT,
                                BACKOFF));

        assertThat(j.path("contradictionRate").asDouble()).as(j.toString()).isEqualTo(1.0);
        assertThat(j.at("/claims/0/contradicted").asBoolean()).isTrue();
        assertThat(j.at("/claims/0/supported").asBoolean()).isFalse();
        assertThat(j.path("grounded").asBoolean()).isFalse();
        assertThat(j.at("/claims/0/reasons").toString()).contains("500");
    }

    @Test
    void answerThatFlipsANegationIsContradicted() {
        JsonNode j = judge(request("Deleting a namespace removes its audit log [1].", AUDIT));

        assertThat(j.path("contradictionRate").asDouble()).as(j.toString()).isEqualTo(1.0);
        assertThat(j.at("/claims/0/contradictedBy/0").asText()).isEqualTo("e1");
    }

    @Test
    void secretInTheAnswerIsAViolationOfTheNoSecretsRuleAndIsNotEchoedOrStored() {
        String secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
        JsonNode j =
                judge(
                        request(
                                "The payments API allows 100 requests per minute for each client"
                                        + " [1]. Authenticate with the token "
                                        + secret
                                        + ".",
                                LIMIT));

        assertThat(j.path("violations").findValuesAsText("rule"))
                .as(j.toString())
                .contains("no-secrets");
        assertThat(j.path("policyCompliance").asDouble()).isLessThan(1.0);
        assertThat(j.toString()).doesNotContain(secret);
        var stored =
                cairn.call(
                        "GET",
                        "/v1/namespaces/ops/judgements/" + j.path("judgementId").asText(),
                        A,
                        null);
        assertThat(stored.status()).isEqualTo(200);
        assertThat(stored.body()).doesNotContain(secret).contains("[REDACTED:github_token]");
    }

    @Test
    void forbiddenPhraseOfARegisteredNamespacePolicyIsNamedWithItsRule() {
        var put =
                cairn.call(
                        "PUT",
                        "/v1/namespaces/ops/policies/tone",
                        A,
                        "rules:\n"
                                + "  - name: no-ai-disclaimer\n"
                                + "    kind: forbidden-phrases\n"
                                + "    phrases: [\"as an AI language model\"]\n",
                        "application/yaml");
        assertThat(put.status()).as(put.body()).isIn(200, 201);
        ObjectNode body =
                request(
                        "As an AI language model, I note the payments API allows 100 requests per"
                                + " minute for each client [1].",
                        LIMIT);
        body.put("policy", "tone");

        JsonNode j = judge(body);

        assertThat(j.path("policy").asText()).isEqualTo("tone");
        assertThat(j.path("violations").findValuesAsText("rule"))
                .as(j.toString())
                .containsExactly("no-ai-disclaimer");
        assertThat(j.path("policyCompliance").asDouble()).isEqualTo(0.0);
        assertThat(j.path("grounded").asBoolean()).isFalse();
    }

    @Test
    void policiesListTheBuiltInDefaultAndRegisteredOnes() {
        cairn.call(
                "PUT",
                "/v1/namespaces/ops/policies/short",
                A,
                "{\"rules\":[{\"kind\":\"max-length\",\"max-chars\":50}]}");

        var list = cairn.call("GET", "/v1/namespaces/ops/policies", A, null);

        assertThat(list.status()).isEqualTo(200);
        assertThat(list.json().path("items").findValuesAsText("name")).contains("default", "short");
        var one = cairn.call("GET", "/v1/namespaces/ops/policies/short", A, null).json();
        assertThat(one.at("/rules/0/kind").asText()).isEqualTo("max-length");
        assertThat(one.path("document").asText()).contains("max-chars");
        var builtIn = cairn.call("GET", "/v1/namespaces/ops/policies/default", A, null).json();
        assertThat(builtIn.path("builtIn").asBoolean()).isTrue();
        assertThat(cairn.call("GET", "/v1/namespaces/elsewhere/policies/short", A, null).status())
                .isEqualTo(404);
    }

    @Test
    void registeringAPolicyNeedsTheReviewRoleAndAValidDocument() {
        var token =
                cairn.call(
                        "POST",
                        "/v1/tokens",
                        A,
                        "{\"name\":\"judge-reader\",\"roles\":[\"read\"],\"namespaces\":[\"ops\"]}");
        String reader = token.json().path("token").asText();
        assertProblem(
                cairn.call("PUT", "/v1/namespaces/ops/policies/x", reader, "{\"rules\":[]}"),
                403,
                "review");
        assertProblem(
                cairn.call(
                        "PUT",
                        "/v1/namespaces/ops/policies/x",
                        A,
                        "{\"rules\":[{\"kind\":\"shout\"}]}"),
                400,
                "shout");
        // a reader may judge
        assertThat(
                        cairn.call(
                                        "POST",
                                        "/v1/namespaces/ops/judge",
                                        reader,
                                        request("The limit is 100 [1].", LIMIT).toString())
                                .status())
                .isEqualTo(200);
    }

    @Test
    void aContradictsRelationInTheGraphContradictsAClaimTheOtherEndSupports() {
        ingest(
                """
                ---
                id: cache-flush-hourly
                title: Refresh stale cart prices
                ---
                # Refresh stale cart prices

                Flush the cart cache every hour so stale prices disappear.
                """);
        ingest(
                """
                ---
                id: cache-keep-warm
                title: Keep the cart cache warm
                contradicts: [cache-flush-hourly]
                ---
                # Keep the cart cache warm

                The cart cache must stay warm during business hours.
                """);
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("query", "how do I deal with stale cart prices?");
        body.put("answer", "Flush the cart cache every hour so stale prices disappear [1].");
        ArrayNode evidence = body.putArray("evidence");
        evidence.addObject()
                .put("id", "cache-flush-hourly#0")
                .put("text", "Flush the cart cache every hour so stale prices disappear.");
        evidence.addObject()
                .put("id", "cache-keep-warm#0")
                .put("text", "The cart cache must stay warm during business hours.");

        JsonNode j = judge(body);

        assertThat(j.at("/claims/0/supported").asBoolean()).as(j.toString()).isTrue();
        assertThat(j.at("/claims/0/contradicted").asBoolean()).isTrue();
        assertThat(j.at("/claims/0/contradictedBy").toString()).contains("cache-keep-warm#0");
        assertThat(j.path("contradictionRate").asDouble()).isEqualTo(1.0);

        // the same answer with only the first runbook as evidence has nothing to contradict it
        ArrayNode alone = body.putArray("evidence");
        alone.addObject()
                .put("id", "cache-flush-hourly#0")
                .put("text", "Flush the cart cache every hour so stale prices disappear.");
        assertThat(judge(body).path("contradictionRate").asDouble()).isEqualTo(0.0);
    }

    static void ingest(String markdown) {
        ObjectNode doc = Json.MAPPER.createObjectNode();
        doc.put("content", markdown);
        doc.put("format", "markdown");
        var created = cairn.call("POST", "/v1/namespaces/ops/documents", A, doc.toString());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    @Test
    void judgingAgainstARetrievalTraceUsesItsSelectedHitsAsEvidence() {
        JsonNode retrieved = retrieve("how do I drain the payments queue?");
        String traceId = retrieved.path("traceId").asText();
        String chunkId = retrieved.at("/hits/0/chunkId").asText();
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("query", "how do I drain the payments queue?");
        body.put(
                "answer",
                "Pause the producers, wait until the consumer lag reaches zero, then restart the"
                        + " workers [1].");
        body.put("traceId", traceId);

        JsonNode j = judge(body);

        assertThat(j.path("traceId").asText()).isEqualTo(traceId);
        assertThat(j.path("citationCoverage").asDouble()).as(j.toString()).isEqualTo(1.0);
        assertThat(j.path("contradictionRate").asDouble()).isEqualTo(0.0);
        assertThat(j.at("/claims/0/citations/0").asText()).isEqualTo(chunkId);

        var stored =
                cairn.call(
                        "GET",
                        "/v1/namespaces/ops/judgements/" + j.path("judgementId").asText(),
                        A,
                        null);
        assertThat(stored.status()).isEqualTo(200);
        assertThat(stored.json().path("traceId").asText()).isEqualTo(traceId);
        assertThat(stored.json().path("plan").asText()).isEqualTo(retrieved.path("plan").asText());
        assertThat(j.path("rules").findValuesAsText("detail").toString())
                .contains("plan is " + retrieved.path("plan").asText());
        assertThat(stored.json().at("/evidence/0/id").asText()).isEqualTo(chunkId);
        assertThat(stored.json().at("/evidence/0/authority").asText()).isEqualTo("authoritative");
        assertThat(stored.json().path("citationCoverage").asDouble()).isEqualTo(1.0);
        assertThat(stored.json().path("answer").asText()).contains("Pause the producers");
    }

    @Test
    void hitsThatSupportAClaimBecomeJudgeFeedbackForTheTracesQueryAndOthersDoNot() {
        String query = "what does the payments queue drain procedure say about consumer lag?";
        JsonNode retrieved = retrieve(query);
        String chunkId = retrieved.at("/hits/0/chunkId").asText();
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("query", "asked differently by the user");
        body.put(
                "answer",
                "Pause the producers, wait until the consumer lag reaches zero, then restart the"
                        + " workers [1]. The moon is made of green cheese [1].");
        body.put("traceId", retrieved.path("traceId").asText());

        JsonNode j = judge(body);

        assertThat(j.at("/claims/0/supported").asBoolean()).as(j.toString()).isTrue();
        assertThat(j.at("/claims/1/supported").asBoolean()).as(j.toString()).isFalse();
        JsonNode feedback =
                cairn.call("GET", "/v1/namespaces/ops/feedback?limit=100", A, null).json();
        List<JsonNode> mine = new ArrayList<>();
        feedback.path("items")
                .forEach(
                        item -> {
                            if (item.path("query").asText().equals(query)) {
                                mine.add(item);
                            }
                        });
        assertThat(mine).as(feedback.toString()).hasSize(1);
        assertThat(mine.getFirst().path("chunkId").asText()).isEqualTo(chunkId);
        assertThat(mine.getFirst().path("grade").asInt()).isEqualTo(1);
        assertThat(mine.getFirst().path("source").asText()).isEqualTo("judge");
    }

    @Test
    void explicitEvidenceThatIsAMemoryAndSupportsAClaimBecomesAMemoryJudgmentAndNothingElseDoes() {
        String memoryId =
                cairn.call(
                                "POST",
                                "/v1/namespaces/ops/memories",
                                A,
                                "{\"type\":\"fact\",\"content\":\"The payments API allows 100"
                                        + " requests per minute per key.\"}")
                        .json()
                        .path("id")
                        .asText();
        int before =
                cairn.call("GET", "/v1/namespaces/ops/feedback", A, null)
                        .json()
                        .path("total")
                        .asInt();
        String query = "what is the payments API's request limit?";
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("query", query);
        body.put(
                "answer",
                "The limit is 100 requests per minute [1]. Keys are rotated every year [2].");
        ArrayNode evidence = body.putArray("evidence");
        // the recalled memory, a text that is no record of the namespace, and a memory id that
        // supports nothing
        evidence.addObject().put("id", memoryId).put("text", LIMIT);
        evidence.addObject().put("id", "e2").put("text", LIMIT);
        evidence.addObject().put("id", "mem-unknown").put("text", "Keys never expire.");

        JsonNode j = judge(body);

        assertThat(j.at("/claims/0/supported").asBoolean()).as(j.toString()).isTrue();
        JsonNode feedback =
                cairn.call("GET", "/v1/namespaces/ops/feedback?limit=100", A, null).json();
        assertThat(feedback.path("total").asInt()).isEqualTo(before + 1);
        JsonNode recorded = feedback.at("/items/0");
        assertThat(recorded.path("query").asText()).isEqualTo(query);
        assertThat(recorded.path("memoryId").asText()).isEqualTo(memoryId);
        assertThat(recorded.path("source").asText()).isEqualTo("judge");
        assertThat(recorded.path("grade").asInt()).isEqualTo(1);

        // evidence that is no memory of the namespace records nothing
        judge(request("The limit is 100 requests per minute [1].", LIMIT));
        assertThat(
                        cairn.call("GET", "/v1/namespaces/ops/feedback", A, null)
                                .json()
                                .path("total")
                                .asInt())
                .isEqualTo(before + 1);
    }

    @Test
    void judgementIsNotFoundFromAnotherNamespaceOrUnderAnUnknownId() {
        JsonNode j = judge(request("The limit is 100 requests per minute [1].", LIMIT));
        String id = j.path("judgementId").asText();

        assertProblem(
                cairn.call("GET", "/v1/namespaces/elsewhere/judgements/" + id, A, null),
                404,
                "does not exist");
        assertProblem(
                cairn.call("GET", "/v1/namespaces/ops/judgements/jdg_nope", A, null),
                404,
                "jdg_nope");
    }

    @Test
    void unknownTraceIdIs404() {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("answer", "Anything.");
        body.put("traceId", "tr_does_not_exist");
        assertProblem(
                cairn.call("POST", "/v1/namespaces/ops/judge", A, body.toString()),
                404,
                "tr_does_not_exist");
    }

    @Test
    void answerOverTheSizeLimitIs413() {
        String huge = "The limit is 100 requests per minute. ".repeat(2000);
        assertProblem(
                cairn.call("POST", "/v1/namespaces/ops/judge", A, request(huge, LIMIT).toString()),
                413,
                "answer too large");
    }

    @Test
    void unknownPolicyIs400NamingTheKnownOnes() {
        ObjectNode body = request("The limit is 100 [1].", LIMIT);
        body.put("policy", "nonexistent");
        var response = cairn.call("POST", "/v1/namespaces/ops/judge", A, body.toString());
        assertProblem(response, 400, "nonexistent");
        assertThat(response.json().path("detail").asText()).contains("default");
    }

    @Test
    void noEvidenceAndNoTraceIs400() {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("answer", "The limit is 100.");
        assertProblem(
                cairn.call("POST", "/v1/namespaces/ops/judge", A, body.toString()),
                400,
                "no evidence");
        assertProblem(
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/judge",
                        A,
                        "{\"answer\":\"x\",\"evidence\":[]}"),
                400,
                "no evidence");
        assertProblem(
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/judge",
                        A,
                        "{\"evidence\":[{\"id\":\"e1\",\"text\":\"t\"}]}"),
                400,
                "answer");
        assertProblem(
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/judge",
                        A,
                        "{\"answer\":\"x\",\"evidence\":[{\"text\":\"t\"}]}"),
                400,
                "evidence[0].id");
    }

    private static void assertProblem(CairnCalls.Response response, int status, String detailPart) {
        assertThat(response.status()).as(response.body()).isEqualTo(status);
        assertThat(response.contentType()).isEqualTo("application/problem+json");
        assertThat(response.json().path("detail").asText()).contains(detailPart);
        assertThat(response.body()).doesNotContain("Exception").doesNotContain("\tat ");
    }
}
