package dev.cairn.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** A real Cairn server on a random port over an embedded store, and an HTTP client for it. */
final class ServerFixture implements CairnCalls, AutoCloseable {

    final CairnServer server;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    ServerFixture(Path dataDir) {
        this(ServerSettings.defaults(dataDir).withPort(0).withAdminToken(CairnCalls.ADMIN));
    }

    ServerFixture(ServerSettings settings) {
        this.server = CairnServer.start(settings);
    }

    @Override
    public CairnCalls.Response call(
            String method, String path, String token, String body, String contentType) {
        HttpResponse<String> response =
                send(
                        method,
                        path,
                        token,
                        body,
                        body == null ? Map.of() : Map.of("Content-Type", contentType));
        return new CairnCalls.Response(
                response.statusCode(),
                response.headers().firstValue("content-type").orElse(""),
                response.body());
    }

    /**
     * One request with {@code headers}, and {@code Authorization: Bearer token} when the token is
     * not null; the whole answer, headers included.
     */
    HttpResponse<String> send(
            String method, String path, String token, String body, Map<String, String> headers) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + path))
                        .timeout(Duration.ofSeconds(30))
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        headers.forEach(request::header);
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
