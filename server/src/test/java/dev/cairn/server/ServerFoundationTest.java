package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The foundation's HTTP contract over a real socket: health, auth, grants, problem+json. */
class ServerFoundationTest {

    @TempDir static Path dataDir;
    static ServerFixture cairn;

    @BeforeAll
    static void start() {
        cairn = new ServerFixture(dataDir);
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    @Test
    void healthIsOpenAndReportsTheStore() {
        var response = cairn.call("GET", "/health", null, null);
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().path("status").asText()).isEqualTo("UP");
        assertThat(response.json().at("/checks/store/kind").asText()).isEqualTo("embedded");
        assertThat(response.json().at("/checks/store/reason").isMissingNode()).isTrue();
    }

    @Test
    void healthReportsTheLastChangeAndEachIndexLag() {
        cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"lagging\"}");
        var store = cairn.call("GET", "/health", null, null).json().at("/checks/store");
        long last = store.get("lastChangeSeq").asLong();
        assertThat(last).isPositive();
        assertThat(store.get("indexLag").size()).isGreaterThanOrEqualTo(2);
        store.get("indexLag")
                .properties()
                .forEach(e -> assertThat(e.getValue().asLong()).as(e.getKey()).isBetween(0L, last));
    }

    @Test
    void metricsArePrometheusText() {
        cairn.call("GET", "/health", null, null);
        var response = cairn.call("GET", "/metrics", null, null);
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.contentType()).startsWith("text/plain");
        assertThat(response.body()).contains("cairn_http_requests_seconds_count");
    }

    @Test
    void openApiDocumentIsServed() {
        var response = cairn.call("GET", "/openapi", null, null);
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body()).startsWith("openapi: 3.").contains("/v1/namespaces:");
    }

    @Test
    void adminTokenCreatesListsAndGetsNamespaces() {
        var created =
                cairn.call(
                        "POST",
                        "/v1/namespaces",
                        CairnCalls.ADMIN,
                        "{\"name\":\"alpha\",\"description\":\"first\"}");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().path("name").asText()).isEqualTo("alpha");

        var got = cairn.call("GET", "/v1/namespaces/alpha", CairnCalls.ADMIN, null);
        assertThat(got.status()).isEqualTo(200);
        assertThat(got.json().path("description").asText()).isEqualTo("first");

        var listed = cairn.call("GET", "/v1/namespaces", CairnCalls.ADMIN, null);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json().path("items").findValuesAsText("name")).contains("alpha");
        assertThat(listed.json().path("total").asLong()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void creatingAnExistingNamespaceIsAConflict() {
        cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"twice\"}");
        var again = cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"twice\"}");
        assertProblem(again, 409);
    }

    @Test
    void illegalNamespaceNameIsABadRequestNamingThePattern() {
        var response =
                cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"Bad Name\"}");
        assertProblem(response, 400);
        assertThat(response.json().path("detail").asText()).contains("[a-z0-9][a-z0-9-]{0,62}");
    }

    @Test
    void missingOrWrongTokenIsUnauthorized() {
        assertProblem(cairn.call("GET", "/v1/namespaces", null, null), 401);
        assertProblem(cairn.call("GET", "/v1/namespaces", "not-a-token", null), 401);
    }

    @Test
    void tokenGrantedOneNamespaceIsForbiddenOnAnother() {
        cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"ns-a\"}");
        cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"ns-b\"}");
        var token =
                cairn.call(
                        "POST",
                        "/v1/tokens",
                        CairnCalls.ADMIN,
                        "{\"name\":\"reader-a\",\"roles\":[\"read\"],\"namespaces\":[\"ns-a\"]}");
        assertThat(token.status()).isEqualTo(201);
        String secret = token.json().path("token").asText();

        assertThat(cairn.call("GET", "/v1/namespaces/ns-a", secret, null).status()).isEqualTo(200);
        assertProblem(cairn.call("GET", "/v1/namespaces/ns-b", secret, null), 403);
        assertProblem(cairn.call("POST", "/v1/namespaces", secret, "{\"name\":\"ns-c\"}"), 403);
        var visible = cairn.call("GET", "/v1/namespaces", secret, null).json();
        assertThat(visible.path("items").findValuesAsText("name")).containsExactly("ns-a");
    }

    @Test
    void deletedTokenStopsWorking() {
        var token =
                cairn.call(
                        "POST",
                        "/v1/tokens",
                        CairnCalls.ADMIN,
                        "{\"name\":\"short-lived\",\"roles\":[\"read\"],\"namespaces\":[\"*\"]}");
        String secret = token.json().path("token").asText();
        assertThat(cairn.call("GET", "/v1/namespaces", secret, null).status()).isEqualTo(200);
        assertThat(cairn.call("DELETE", "/v1/tokens/short-lived", CairnCalls.ADMIN, null).status())
                .isEqualTo(204);
        assertProblem(cairn.call("GET", "/v1/namespaces", secret, null), 401);
    }

    @Test
    void listedTokensNeverShowSecretsOrHashes() {
        var listed = cairn.call("GET", "/v1/tokens", CairnCalls.ADMIN, null);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body()).doesNotContain("sha256").doesNotContain(CairnCalls.ADMIN);
    }

    @Test
    void malformedJsonIsABadRequestNamingWhere() {
        var response = cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\": ");
        assertProblem(response, 400);
        assertThat(response.json().path("detail").asText()).startsWith("malformed JSON at line 1");
    }

    @Test
    void bodyOverTheLimitIsTooLarge() {
        String huge = "{\"name\":\"x\",\"description\":\"" + "a".repeat(11 * 1024 * 1024) + "\"}";
        var response = cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, huge);
        assertProblem(response, 413);
    }

    @Test
    void nonJsonContentTypeIsUnsupported() {
        var response =
                cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "name=x", "text/plain");
        assertProblem(response, 415);
    }

    @Test
    void unknownRouteIsANotFoundProblem() {
        assertProblem(cairn.call("GET", "/v1/nothing-here", CairnCalls.ADMIN, null), 404);
        assertProblem(cairn.call("GET", "/v1/namespaces/missing", CairnCalls.ADMIN, null), 404);
    }

    @Test
    void wrongMethodIsNotAllowed() {
        assertProblem(cairn.call("PATCH", "/v1/namespaces", CairnCalls.ADMIN, "{}"), 405);
    }

    private static void assertProblem(CairnCalls.Response response, int status) {
        assertThat(response.status()).as(response.body()).isEqualTo(status);
        assertThat(response.contentType()).isEqualTo("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        assertThat(problem.path("title").asText()).isNotBlank();
        assertThat(problem.path("detail").asText()).isNotBlank();
        assertThat(response.body()).doesNotContain("Exception").doesNotContain("\tat ");
    }
}
