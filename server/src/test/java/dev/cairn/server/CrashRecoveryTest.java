package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the server process with SIGKILL in the middle of a stream of acknowledged writes and
 * checks, after a restart on the same data dir, that every acknowledged write is there.
 */
class CrashRecoveryTest {

    private static final String TOKEN = "crash-test-admin-token-of-32-chars-or-more";
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir Path temp;

    @Test
    void everyAcknowledgedWriteSurvivesSigkill() throws Exception {
        ServerProcess first = startServer("first.log");
        URI base = first.url();
        List<String> acknowledged = new ArrayList<>();
        CompletableFuture<Void> writer =
                CompletableFuture.runAsync(
                        () -> {
                            for (int i = 0; ; i++) {
                                String name = "crash-" + i;
                                try {
                                    HttpResponse<String> response = post(base, name);
                                    if (response.statusCode() != 201) {
                                        return;
                                    }
                                    synchronized (acknowledged) {
                                        acknowledged.add(name);
                                    }
                                } catch (IOException | InterruptedException e) {
                                    return;
                                }
                            }
                        });
        Waits.until(() -> size(acknowledged) >= 60, Duration.ofSeconds(60));
        first.kill(); // SIGKILL: no shutdown hook runs
        writer.get(30, TimeUnit.SECONDS);
        assertThat(size(acknowledged)).isGreaterThanOrEqualTo(60);

        try (ServerProcess second = startServer("second.log")) {
            URI restarted = second.url();
            for (String name : List.copyOf(acknowledged)) {
                HttpResponse<String> got =
                        http.send(
                                HttpRequest.newBuilder(restarted.resolve("/v1/namespaces/" + name))
                                        .header("Authorization", "Bearer " + TOKEN)
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                assertThat(got.statusCode()).as("acknowledged namespace %s", name).isEqualTo(200);
            }
        }
    }

    private HttpResponse<String> post(URI base, String name)
            throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(base.resolve("/v1/namespaces"))
                        .timeout(Duration.ofSeconds(5))
                        .header("Authorization", "Bearer " + TOKEN)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + name + "\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A server on the one data dir, over the embedded store. */
    private ServerProcess startServer(String log) throws InterruptedException {
        return ServerProcess.start(
                        temp.resolve("data"), temp.resolve(log), TOKEN, List.of(), List.of())
                .awaitReady();
    }

    private static int size(List<String> list) {
        synchronized (list) {
            return list.size();
        }
    }
}
