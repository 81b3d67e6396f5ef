package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Calls of a command test to the real server it started, with one token. */
final class AdminHttp {

    private final HttpClient http = HttpClient.newHttpClient();
    private final String token;

    AdminHttp(String token) {
        this.token = token;
    }

    /** The answer, whatever its status. */
    HttpResponse<String> send(int port, String method, String path, String body, String bearer)
            throws IOException, InterruptedException {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                        .header("Authorization", "Bearer " + bearer)
                        .header("Content-Type", "application/json")
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The answer's JSON ({@code null} for none), after asserting a 2xx status. */
    JsonNode call(int port, String method, String path, String body)
            throws IOException, InterruptedException {
        HttpResponse<String> r = send(port, method, path, body, token);
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 299);
        return r.body().isEmpty() ? null : Json.MAPPER.readTree(r.body());
    }
}
