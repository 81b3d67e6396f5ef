package dev.cairn.server.cli;

import dev.cairn.server.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import picocli.CommandLine.Option;

/** A running Cairn server a command talks to instead of the local data dir. */
final class RemoteOptions {

    @Option(
            names = "--server",
            paramLabel = "URL",
            description = "a running Cairn server, e.g. http://localhost:8080")
    URI server;

    @Option(
            names = "--token",
            paramLabel = "TOKEN",
            description = "bearer token for --server (or CAIRN_TOKEN)")
    String token;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    boolean remote() {
        return server != null;
    }

    /** POSTs JSON and answers the response body; a non-2xx answer fails with its detail. */
    String post(String path, Object body) {
        String secret = token != null ? token : System.getenv().getOrDefault("CAIRN_TOKEN", "");
        if (secret.isBlank()) {
            throw new IllegalArgumentException("--server needs --token or CAIRN_TOKEN");
        }
        HttpRequest request =
                HttpRequest.newBuilder(server.resolve(path))
                        .timeout(Duration.ofMinutes(5))
                        .header("Authorization", "Bearer " + secret)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(Json.bytes(body)))
                        .build();
        try {
            HttpResponse<String> response =
                    http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                String detail = response.body();
                try {
                    detail = Json.MAPPER.readTree(response.body()).path("detail").asText(detail);
                } catch (IOException ignored) {
                    // not a problem document: show the body as it is
                }
                throw new IllegalStateException(
                        "server answered " + response.statusCode() + ": " + detail);
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach " + server, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
