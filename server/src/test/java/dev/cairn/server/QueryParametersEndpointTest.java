package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import io.helidon.webserver.testing.junit5.RoutingTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Query parameters are as strict as bodies on every mount, through the production routing: one a
 * route does not declare is a 400 naming it, the known ones and the closest, in the mount's own
 * envelope; every documented one is still taken. Also {@code GET /}, which points API clients at
 * the API and sends browsers to the console, and {@code POST documents?skipUnchanged=true}.
 */
@RoutingTest
class QueryParametersEndpointTest {

    static final String A = CairnCalls.ADMIN;
    static final String NS = "/v1/namespaces/params";

    @TempDir static Path dataDir;
    static RoutedCairn cairn;
    static DirectClient client;

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        cairn = RoutedCairn.open(dataDir, routing);
    }

    @BeforeAll
    static void start(DirectClient directClient) {
        client = directClient;
        cairn.connect(directClient);
        assertThat(cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"params\"}").status())
                .isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    private static String problem(CairnCalls.Response r) {
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.contentType()).startsWith("application/problem+json");
        return r.json().path("detail").asText();
    }

    @Test
    void offsetIsRefusedInsteadOfAnsweringPageOne() {
        String detail = problem(cairn.call("GET", NS + "/documents?offset=5", A, null));
        assertThat(detail)
                .isEqualTo(
                        "unknown query parameter 'offset' for GET /v1/namespaces/{ns}/documents;"
                                + " known: cursor, limit, q");
    }

    @Test
    void aNearMissIsNamedWithTheParameterMeant() {
        assertThat(problem(cairn.call("GET", NS + "/memories?userid=u1", A, null)))
                .startsWith(
                        "unknown query parameter 'userid' for GET /v1/namespaces/{ns}/memories;"
                                + " did you mean 'userId'?; known: agentId, cursor,");
        assertThat(problem(cairn.call("POST", NS + "/retrieve?trac=true", A, "{\"query\":\"x\"}")))
                .isEqualTo(
                        "unknown query parameter 'trac' for POST /v1/namespaces/{ns}/retrieve;"
                                + " did you mean 'trace'?; known: trace");
    }

    @Test
    void aRouteWithoutParametersSaysItTakesNone() {
        assertThat(problem(cairn.call("GET", NS + "?verbose=true", A, null)))
                .isEqualTo(
                        "unknown query parameter 'verbose' for GET /v1/namespaces/{ns}; it takes"
                                + " none");
        assertThat(problem(cairn.call("POST", "/mcp/params?session=1", A, "{}")))
                .startsWith("unknown query parameter 'session' for POST /mcp/{ns}");
    }

    @Test
    void theCompatibilityMountsAnswerInTheirClientsEnvelopes() {
        var ark = cairn.call("GET", "/ark/params/messages?conversation_id=c1&page=2", A, null);
        assertThat(ark.status()).as(ark.body()).isEqualTo(400);
        JsonNode error = ark.json().path("error");
        assertThat(error.path("code").asText()).isEqualTo("VALIDATION_ERROR");
        assertThat(error.path("message").asText())
                .isEqualTo(
                        "unknown query parameter 'page' for GET /ark/{ns}/messages; known:"
                                + " conversation_id, cursor, limit, query_id, watch");
        var orloj = cairn.call("POST", "/orloj/params/search?top_k=3", A, "{\"query\":\"x\"}");
        assertThat(orloj.status()).as(orloj.body()).isEqualTo(400);
        assertThat(orloj.json().path("error").asText())
                .isEqualTo(
                        "unknown query parameter 'top_k' for POST /orloj/{ns}/search; it takes none");
    }

    @Test
    void whatTheRealClientsSendIsStillTaken() {
        // ARK's controller reads a conversation's history with exactly this query
        // (ark/internal/genai/memory_http.go, fetchMessageRecords)
        assertThat(cairn.call("GET", "/ark/params/messages?conversation_id=c1", A, null).status())
                .isEqualTo(200);
        // ark-api's memory-messages filter by conversation_id and query_id; the console pages
        // with limit and cursor and watches with watch
        assertThat(
                        cairn.call(
                                        "GET",
                                        "/ark/params/messages?conversation_id=c1&query_id=q1"
                                                + "&cursor=0&limit=5&watch=false",
                                        A,
                                        null)
                                .status())
                .isEqualTo(200);
        // Orloj's client (runtime/persistent_memory_http.go) sends everything in bodies
        assertThat(cairn.call("POST", "/orloj/params/list", A, "{\"prefix\":\"\"}").status())
                .isEqualTo(200);
    }

    @Test
    void everyDocumentedParameterOfTheV1ListsIsTaken() {
        String[] ok = {
            "/v1/namespaces?limit=5&cursor=",
            NS + "/documents?q=disk&limit=5&cursor=",
            NS + "/entities?q=disk&limit=5&relations=2",
            NS + "/feedback?limit=5&cursor=",
            NS + "/proposals?type=memory&status=pending&taskName=t&agentName=a&q=x&limit=5&cursor=",
            NS
                    + "/memories?q=x&type=fact&status=active&tags=a,b&userId=u&agentId=a"
                    + "&sessionName=s&taskName=t&parentTask=p&source=api&ids=m1"
                    + "&includeDisabled=true&includeDeleted=false&limit=5&cursor=",
        };
        for (String path : ok) {
            var r = cairn.call("GET", path, A, null);
            assertThat(r.status()).as(path + " -> " + r.body()).isEqualTo(200);
        }
        var traced = cairn.call("POST", NS + "/retrieve?trace=true", A, "{\"query\":\"disk\"}");
        assertThat(traced.status()).as(traced.body()).isEqualTo(200);
    }

    @Test
    void anUnauthenticatedCallIsRefusedBeforeItsParametersAreRead() {
        assertThat(cairn.call("GET", NS + "/documents?offset=5", null, null).status())
                .isEqualTo(401);
    }

    @Test
    void theConsolesFilesIgnoreQueryStringsAsStaticFilesDo() {
        assertThat(cairn.call("GET", "/console/?v=2", null, null).status()).isEqualTo(200);
    }

    @Test
    void skipUnchangedAnswersTheStoredVersionWithoutWritingAndAPlainPostStillReplaces() {
        String doc = "{\"id\":\"restart\",\"content\":\"# Restart\\n\\nOne pod at a time.\\n\"}";
        var first = cairn.call("POST", NS + "/documents?skipUnchanged=true", A, doc);
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        assertThat(first.json().path("version").asLong()).isEqualTo(1);
        assertThat(first.json().path("unchanged").asBoolean()).isFalse();

        var again = cairn.call("POST", NS + "/documents?skipUnchanged=true", A, doc);
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().path("version").asLong()).isEqualTo(1);
        assertThat(again.json().path("unchanged").asBoolean()).isTrue();
        assertThat(again.json().path("chunks").asInt())
                .isEqualTo(first.json().path("chunks").asInt());

        var replaced = cairn.call("POST", NS + "/documents", A, doc);
        assertThat(replaced.status()).isEqualTo(201);
        assertThat(replaced.json().path("version").asLong()).isEqualTo(2);

        String changed = doc.replace("One pod", "Two pods");
        var written = cairn.call("POST", NS + "/documents?skipUnchanged=true", A, changed);
        assertThat(written.status()).isEqualTo(201);
        assertThat(written.json().path("version").asLong()).isEqualTo(3);

        assertThat(problem(cairn.call("POST", NS + "/documents?skipUnchanged=yes", A, doc)))
                .isEqualTo("query parameter 'skipUnchanged' must be true or false, got 'yes'");
    }

    @Test
    void theRootSendsABrowserToTheConsole() {
        try (HttpClientResponse r =
                client.method(Method.GET)
                        .path("/")
                        .followRedirects(false)
                        .header(HeaderNames.ACCEPT, "text/html,application/xhtml+xml")
                        .request()) {
            assertThat(r.status().code()).isEqualTo(303);
            assertThat(r.headers().first(HeaderNames.LOCATION)).contains("/console/");
        }
    }

    @Test
    void theRootPointsAnApiClientAtTheApiWithoutAToken() {
        var r = cairn.call("GET", "/", null, null);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.contentType()).startsWith("application/json");
        assertThat(r.json().toString())
                .isEqualTo(
                        "{\"name\":\"cairn\",\"api\":\"/v1\",\"console\":\"/console/\","
                                + "\"openapi\":\"/openapi\",\"health\":\"/health\"}");
        // each path it names answers
        assertThat(cairn.call("GET", "/openapi", null, null).status()).isEqualTo(200);
        assertThat(cairn.call("GET", "/health", null, null).status()).isEqualTo(200);
        assertThat(cairn.call("GET", "/console/", null, null).status()).isEqualTo(200);
    }
}
