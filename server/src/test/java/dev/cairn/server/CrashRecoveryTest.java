package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the server process with SIGKILL in the middle of a stream of acknowledged writes and
 * checks, after a restart on the same data dir, that every acknowledged write is there.
 */
class CrashRecoveryTest {

    private static final String TOKEN = "crash-test-admin-token-of-32-chars-or-more";
    private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir Path dataDir;

    @Test
    void everyAcknowledgedWriteSurvivesSigkill() throws Exception {
        Process first = startServer();
        URI base = awaitUrl(first);
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
        first.destroyForcibly(); // SIGKILL on Linux: no shutdown hook runs
        first.waitFor(30, TimeUnit.SECONDS);
        writer.get(30, TimeUnit.SECONDS);
        assertThat(size(acknowledged)).isGreaterThanOrEqualTo(60);

        Process second = startServer();
        try {
            URI restarted = awaitUrl(second);
            for (String name : List.copyOf(acknowledged)) {
                HttpResponse<String> got =
                        http.send(
                                HttpRequest.newBuilder(restarted.resolve("/v1/namespaces/" + name))
                                        .header("Authorization", "Bearer " + TOKEN)
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                assertThat(got.statusCode()).as("acknowledged namespace %s", name).isEqualTo(200);
            }
        } finally {
            second.destroy();
            second.waitFor(30, TimeUnit.SECONDS);
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

    private Process startServer() throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder =
                new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.cairn.server.cli.Main",
                        "serve",
                        "--port",
                        "0",
                        "--data",
                        dataDir.toString());
        builder.environment().put("CAIRN_ADMIN_TOKEN", TOKEN);
        builder.environment().remove("CAIRN_DB_URL");
        builder.redirectErrorStream(true);
        return builder.start();
    }

    private static URI awaitUrl(Process process) throws Exception {
        BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<URI> url =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                StringBuilder seen = new StringBuilder();
                                for (String line; (line = out.readLine()) != null; ) {
                                    seen.append(line).append('\n');
                                    Matcher m = LISTENING.matcher(line);
                                    if (m.find()) {
                                        drain(out);
                                        return URI.create(m.group(1));
                                    }
                                }
                                throw new IllegalStateException("server exited:\n" + seen);
                            } catch (IOException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        return url.get(120, TimeUnit.SECONDS);
    }

    private static void drain(BufferedReader out) {
        Thread.ofVirtual()
                .start(
                        () -> {
                            try {
                                while (out.readLine() != null) {
                                    // keep the pipe from filling up
                                }
                            } catch (IOException ignored) {
                                // process ended
                            }
                        });
    }

    private static int size(List<String> list) {
        synchronized (list) {
            return list.size();
        }
    }
}
