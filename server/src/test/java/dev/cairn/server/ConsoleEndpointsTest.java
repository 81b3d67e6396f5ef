package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the console needs of the server, over a real socket: its files load without a token while
 * the API stays closed, {@code GET /v1/token} tells a token what it may do, and the operation
 * histogram the health page draws counts the recall.
 */
class ConsoleEndpointsTest {

    @TempDir static Path dataDir;
    static ServerFixture cairn;

    @BeforeAll
    static void start() {
        cairn = new ServerFixture(dataDir);
        cairn.call(
                "POST",
                "/v1/namespaces",
                CairnCalls.ADMIN,
                "{\"name\":\"ops\",\"recallScope\":\"namespace\"}");
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    @Test
    void consoleFilesLoadWithoutATokenFromTheServerJar() {
        var page = cairn.call("GET", "/console/", null, null);
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.body()).contains("<div id=\"app\">", "/console/assets/");

        Matcher script =
                Pattern.compile("src=\"(/console/assets/[^\"]+\\.js)\"").matcher(page.body());
        assertThat(script.find()).as("index.html names its bundle").isTrue();
        var bundle = cairn.call("GET", script.group(1), null, null);
        assertThat(bundle.status()).isEqualTo(200);
        assertThat(bundle.contentType()).contains("javascript");
        assertThat(bundle.body()).contains("/v1/token", "Authorization");
    }

    @Test
    void aBrowserRevalidatingItsCacheGetsNotModified() throws Exception {
        var first =
                cairn.http.send(
                        java.net.http.HttpRequest.newBuilder(
                                        java.net.URI.create(
                                                "http://localhost:"
                                                        + cairn.server.port()
                                                        + "/console/"))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        String etag = first.headers().firstValue("etag").orElseThrow();
        var again =
                cairn.http.send(
                        java.net.http.HttpRequest.newBuilder(
                                        java.net.URI.create(
                                                "http://localhost:"
                                                        + cairn.server.port()
                                                        + "/console/"))
                                .header("If-None-Match", etag)
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(again.statusCode()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
    }

    @Test
    void onlyReadingConsoleFilesIsOpen() {
        assertThat(cairn.call("GET", "/console/no-such-file.js", null, null).status())
                .isEqualTo(404);
        assertThat(cairn.call("POST", "/console/", null, "{}").status()).isEqualTo(401);
        assertThat(cairn.call("GET", "/console/../v1/namespaces", null, null).status())
                .isIn(400, 401, 404);
        assertThat(cairn.call("GET", "/consoles", null, null).status()).isEqualTo(401);
        assertThat(cairn.call("GET", "/v1/namespaces", null, null).status()).isEqualTo(401);
    }

    @Test
    void tokenEndpointShowsTheCallersOwnGrantsAndNoSecret() {
        var created =
                cairn.call(
                        "POST",
                        "/v1/tokens",
                        CairnCalls.ADMIN,
                        "{\"name\":\"viewer\",\"roles\":[\"read\"],\"namespaces\":[\"ops\"]}");
        String secret = created.json().get("token").asText();

        var self = cairn.call("GET", "/v1/token", secret, null);
        assertThat(self.status()).isEqualTo(200);
        assertThat(self.json().get("name").asText()).isEqualTo("viewer");
        assertThat(self.json().get("roles")).extracting(r -> r.asText()).containsExactly("read");
        assertThat(self.json().get("namespaces"))
                .extracting(n -> n.asText())
                .containsExactly("ops");
        assertThat(self.json().has("token")).isFalse();
        assertThat(self.body()).doesNotContain(secret);

        var admin = cairn.call("GET", "/v1/token", CairnCalls.ADMIN, null).json();
        assertThat(admin.get("roles")).extracting(r -> r.asText()).contains("admin");
        assertThat(admin.get("namespaces")).extracting(n -> n.asText()).containsExactly("*");

        assertThat(cairn.call("GET", "/v1/token", "wrong", null).status()).isEqualTo(401);
        assertThat(cairn.call("POST", "/v1/token", secret, "{}").status()).isEqualTo(405);
    }

    @Test
    void requestMetricsNameTheOperation() {
        var recall =
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/recall",
                        CairnCalls.ADMIN,
                        "{\"query\":\"when may I restart billing-api?\"}");
        assertThat(recall.status()).isEqualTo(200);
        String metrics = cairn.call("GET", "/metrics", null, null).body();
        assertThat(metrics)
                .containsPattern(
                        "cairn_operation_seconds_count\\{[^}]*operation=\"recall\"[^}]*\\} 1(\\.0)?\\n");
        assertThat(metrics).doesNotContain("operation=\"other\"");
    }
}
