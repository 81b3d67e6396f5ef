package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop ends answers that last as long as their client wants instead of waiting out the web
 * server's grace period (10 s) for them: an MCP listening stream whose client left without its
 * {@code DELETE} (a process killed, a laptop closed; nothing is written to it until something
 * happens), and an ARK message watch, which a broker keeps open for good.
 */
class StopEndsLongAnswersTest {

    static final String A = CairnCalls.ADMIN;

    @Test
    void aStopEndsOpenListeningStreamsInsteadOfWaitingOutItsGracePeriod(@TempDir Path dataDir)
            throws Exception {
        ServerFixture cairn = new ServerFixture(dataDir);
        boolean closed = false;
        try {
            cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"ops\"}");
            URI mcp = URI.create("http://localhost:" + cairn.server.port() + "/mcp/ops");
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> initialized =
                    http.send(
                            post(
                                    mcp,
                                    null,
                                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                                            + "\"params\":{\"protocolVersion\":\"2025-06-18\","
                                            + "\"capabilities\":{},\"clientInfo\":{\"name\":"
                                            + "\"left-open\",\"version\":\"1\"}}}"),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
            String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
            HttpResponse<String> notified =
                    http.send(
                            post(
                                    mcp,
                                    session,
                                    "{\"jsonrpc\":\"2.0\",\"method\":"
                                            + "\"notifications/initialized\"}"),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(notified.statusCode()).as(notified.body()).isEqualTo(202);
            HttpResponse<InputStream> listening =
                    openStream(
                            HttpRequest.newBuilder(mcp)
                                    .header("Accept", "text/event-stream")
                                    .header("Mcp-Session-Id", session));
            String received = stopAndRead(cairn, listening, "a listening stream");
            closed = true;
            assertThat(received).as("the stream ended, not broken").startsWith(": listening");
        } finally {
            if (!closed) {
                cairn.close();
            }
        }
    }

    @Test
    void aStopEndsOpenArkMessageWatches(@TempDir Path dataDir) throws Exception {
        ServerFixture cairn = new ServerFixture(dataDir);
        boolean closed = false;
        try {
            cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"agents\"}");
            HttpResponse<InputStream> watch =
                    openStream(
                            HttpRequest.newBuilder(
                                    URI.create(
                                            "http://localhost:"
                                                    + cairn.server.port()
                                                    + "/ark/agents/messages?watch=true")));
            String received = stopAndRead(cairn, watch, "a message watch");
            closed = true;
            assertThat(received).as("the watch ended, not broken").startsWith(": connected");
        } finally {
            if (!closed) {
                cairn.close();
            }
        }
    }

    /** Sends {@code request} as a GET with the admin token and answers its open 200 stream. */
    private static HttpResponse<InputStream> openStream(HttpRequest.Builder request)
            throws Exception {
        HttpResponse<InputStream> stream =
                HttpClient.newHttpClient()
                        .sendAsync(
                                request.header("Authorization", "Bearer " + A).GET().build(),
                                HttpResponse.BodyHandlers.ofInputStream())
                        .get(10, TimeUnit.SECONDS);
        assertThat(stream.statusCode()).isEqualTo(200);
        return stream;
    }

    /**
     * Stops the server, asserting it took less than half its grace period with {@code what} open,
     * and answers what the stream received until it ended.
     */
    private static String stopAndRead(
            ServerFixture cairn, HttpResponse<InputStream> stream, String what) throws Exception {
        CompletableFuture<String> read =
                CompletableFuture.supplyAsync(
                        () -> {
                            try (InputStream in = stream.body()) {
                                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                            } catch (Exception e) {
                                return "broken: " + e;
                            }
                        });
        long start = System.nanoTime();
        cairn.close();
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took)
                .as("the stop, with %s open", what)
                .isLessThan(ServerSettings.DEFAULT_SHUTDOWN_GRACE.dividedBy(2));
        return read.get(5, TimeUnit.SECONDS);
    }

    private static HttpRequest post(URI mcp, String session, String body) {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(mcp)
                        .header("Authorization", "Bearer " + A)
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return b.build();
    }
}
