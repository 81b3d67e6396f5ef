package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.server.api.ArkRoutes;
import dev.cairn.server.api.ArkSettings;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ARK mount's limits set small ({@code cairn.ark}): conversation creates are refused past a
 * caller's burst with 429 and a {@code Retry-After} that says when the next one goes through, per
 * token and namespace or, without a token, per client address; a history read past its bound
 * answers the first system message and the newest window. The defaults are checked against a busy
 * controller's burst in {@link ArkConformanceTest}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArkLimitsTest {

    /** Small on purpose: three creates at once, then one every two seconds. */
    static final ArkSettings SMALL = new ArkSettings(5, 3, 0.5);

    ServerFixture cairn;
    String writer;
    String otherWriter;
    String reader;

    @BeforeAll
    void start(@TempDir Path dataDir) {
        cairn =
                new ServerFixture(
                        ServerSettings.defaults(dataDir)
                                .withPort(0)
                                .withAdminToken(CairnCalls.ADMIN)
                                .withArk(SMALL));
        for (String ns : List.of("limits", "limits-two")) {
            cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"" + ns + "\"}");
        }
        writer = token("ark-writer", "write");
        otherWriter = token("ark-writer-2", "write");
        reader = token("ark-reader", "read");
    }

    private String token(String name, String role) {
        return cairn.call(
                        "POST",
                        "/v1/tokens",
                        CairnCalls.ADMIN,
                        "{\"name\":\""
                                + name
                                + "\",\"roles\":[\""
                                + role
                                + "\"],\"namespaces\":[\"limits\",\"limits-two\"]}")
                .json()
                .path("token")
                .asText();
    }

    @AfterAll
    void stop() {
        if (cairn != null) {
            cairn.close();
        }
    }

    /** ARK's conversation create: JSON content type, no body; a bearer token when not null. */
    HttpResponse<String> create(String namespace, String token) {
        return send("POST", "/ark/" + namespace + "/conversations", null, token);
    }

    HttpResponse<String> send(String method, String path, String body, String token) {
        return cairn.send(method, path, token, body, ArkConformanceTest.ARK_HEADERS);
    }

    static void assertRefused(HttpResponse<String> r, String who) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(429);
        assertThat(r.headers().firstValue("Retry-After"))
                .as("a token every 2 s: the next one within 2 s")
                .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isBetween(1L, 2L));
        JsonNode error = ArkConformanceTest.tree(r.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("BAD_REQUEST");
        assertThat(error.path("message").asText())
                .contains(who, "at most 3 at once", "cairn.ark.create-burst");
    }

    @Test
    void createsPastATokensBurstAre429WithRetryAfterAndEachTokenAndNamespaceHasItsOwn()
            throws InterruptedException {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < SMALL.createBurst(); i++) {
            statuses.add(create("limits", writer).statusCode());
        }
        assertThat(statuses).containsOnly(201);
        assertRefused(create("limits", writer), "token on namespace 'limits'");

        // Another token, and the same token in another namespace, have buckets of their own.
        assertThat(create("limits", otherWriter).statusCode()).isEqualTo(201);
        assertThat(create("limits-two", writer).statusCode()).isEqualTo(201);

        // The refusal's Retry-After is honest: after it, the next create goes through.
        HttpResponse<String> refused = create("limits", writer);
        assertThat(refused.statusCode()).isEqualTo(429);
        Thread.sleep(
                1000 * Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow()));
        assertThat(create("limits", writer).statusCode()).isEqualTo(201);
    }

    @Test
    void anonymousCreatesAreLimitedPerAddressWhateverTheNamespace() {
        // ARK's own client sends no token on create: its creates share its address's bucket, and
        // naming other namespaces (even ones that do not exist) does not give it more.
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < SMALL.createBurst(); i++) {
            statuses.add(create(i % 2 == 0 ? "limits" : "no-such-namespace", null).statusCode());
        }
        assertThat(statuses).containsOnly(201);
        assertRefused(create("limits-two", null), "address");
        assertThat(create("limits-two", otherWriter).statusCode())
                .as("a token's bucket is not the address's")
                .isEqualTo(201);
    }

    @Test
    void aTokenOnCreateIsCheckedLikeAnywhereElse() {
        assertThat(create("limits", "not-a-token").statusCode()).isEqualTo(401);
        HttpResponse<String> readOnly = create("limits", reader);
        assertThat(readOnly.statusCode()).isEqualTo(403);
        assertThat(ArkConformanceTest.tree(readOnly.body()).path("error").path("message").asText())
                .contains("lacks role 'write'");
    }

    @Test
    void aHistoryPastTheConfiguredBoundIsTheSystemMessageAndTheNewestTurns() {
        String conversation = "c-history";
        String messages =
                String.join(
                        ",",
                        "{\"role\":\"system\",\"content\":\"be precise\"}",
                        "{\"role\":\"user\",\"content\":\"one\"}",
                        "{\"role\":\"assistant\",\"content\":\"two\"}",
                        "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\","
                                + "\"type\":\"function\",\"function\":{\"name\":\"f\","
                                + "\"arguments\":\"{}\"}}]}",
                        "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"four\"}",
                        "{\"role\":\"assistant\",\"content\":\"five\"}",
                        "{\"role\":\"user\",\"content\":\"six\"}",
                        "{\"role\":\"assistant\",\"content\":\"seven\"}");
        HttpResponse<String> appended =
                send(
                        "POST",
                        "/ark/limits/messages",
                        "{\"conversation_id\":\""
                                + conversation
                                + "\",\"query_id\":\"q\",\"messages\":["
                                + messages
                                + "]}",
                        writer);
        assertThat(appended.statusCode()).as(appended.body()).isEqualTo(200);

        HttpResponse<String> r =
                send("GET", "/ark/limits/messages?conversation_id=" + conversation, null, reader);

        // bound 5: the system message and the newest four, less the tool result whose call was
        // left out (a model API refuses a tool result without its call)
        ArkClientShapes.MessagesResponse page = ArkClientShapes.decode(r.body());
        assertThat(page.items())
                .extracting(i -> i.message().path("content").asText())
                .containsExactly("be precise", "five", "six", "seven");
        assertThat(page.total()).isEqualTo(8);
        assertThat(r.headers().firstValue(ArkRoutes.HISTORY_OMITTED_HEADER)).contains("4");
    }

    @Test
    void readsTheLimitsFromTheArkConfigNode() {
        Config cairnNode =
                Config.just(
                                ConfigSources.create(
                                        Map.of(
                                                "cairn.ark.history-messages", "2500",
                                                "cairn.ark.create-burst", "40",
                                                "cairn.ark.creates-per-second", "7.5")))
                        .get("cairn");
        assertThat(ServerSettings.fromConfig(cairnNode).ark())
                .isEqualTo(new ArkSettings(2500, 40, 7.5));
        assertThat(ServerSettings.fromConfig(Config.empty().get("cairn")).ark())
                .isEqualTo(ArkSettings.DEFAULTS);
        assertThatThrownBy(() -> new ArkSettings(1, 10, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cairn.ark.history-messages: 1");
        assertThatThrownBy(() -> new ArkSettings(10, 0, 1))
                .hasMessageContaining("cairn.ark.create-burst: 0");
        assertThatThrownBy(() -> new ArkSettings(10, 10, 0))
                .hasMessageContaining("cairn.ark.creates-per-second: 0.0");
    }
}
