package dev.cairn.server.cli;

import dev.cairn.server.http.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/** A running Cairn server a command talks to instead of the local data dir. */
final class RemoteOptions {

    @Option(
            names = "--server",
            paramLabel = "URL",
            description =
                    "a running Cairn server to ask, e.g. localhost:8080 (http unless a scheme is"
                            + " given); default: none, or the server that holds the data dir")
    String server;

    @Option(
            names = "--token",
            paramLabel = "TOKEN",
            description = "bearer token for --server (or CAIRN_TOKEN); default: none")
    String token;

    /**
     * Made on first use, not when picocli builds the command line: an HTTP client starts a thread,
     * which {@code --help} and usage errors need not wait for.
     */
    private static final class Http {
        static final HttpClient CLIENT =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Options naming {@code server} with {@code token}, as if given on the command line. */
    static RemoteOptions of(String server, String token) {
        RemoteOptions options = new RemoteOptions();
        options.server = server;
        options.token = token;
        return options;
    }

    boolean remote() {
        return server != null;
    }

    /**
     * The server's base URI; a URL without a scheme ({@code localhost:8080}) means plain HTTP, as a
     * browser would read it. {@code URI.create("localhost:8080")} would take "localhost" for the
     * scheme instead.
     */
    static URI baseUri(String server) {
        String url = server.strip();
        String base = url.contains("://") ? url : "http://" + url;
        base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        try {
            URI uri = new URI(base);
            if (uri.getHost() == null) {
                throw new URISyntaxException(server, "no host");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "--server must be a URL such as localhost:8080 or https://cairn.example.com,"
                            + " got '"
                            + server
                            + "'");
        }
    }

    /**
     * The exception for a non-2xx answer, so that a mistake exits as it does without a server
     * ({@link Main}): a 4xx says the request was wrong (usage or input: {@link
     * IllegalArgumentException}, exit 2), anything else that the server failed (exit 1).
     */
    static RuntimeException answered(int status, String detail) {
        String message = "server answered " + status + ": " + detail;
        return status >= 400 && status < 500
                ? new IllegalArgumentException(message)
                : new IllegalStateException(message);
    }

    /** POSTs JSON and answers the response body; a non-2xx answer fails with its detail. */
    String post(String path, Object body) {
        return postForAnswer(path, body).orThrow();
    }

    /** A server's answer: its status and, for an error, the problem's {@code detail}. */
    record Answer(int status, String body) {
        boolean ok() {
            return status / 100 == 2;
        }

        /**
         * The body of a 2xx answer; any other fails with the status and the detail, as {@link
         * #answered} says.
         */
        String orThrow() {
            if (!ok()) {
                throw answered(status, detail());
            }
            return body;
        }

        /** The problem document's {@code detail}, or the body as it is when it is none. */
        String detail() {
            try {
                return Json.MAPPER.readTree(body).path("detail").asText(body);
            } catch (IOException notAProblem) {
                return body;
            }
        }
    }

    /**
     * POSTs JSON and answers whatever the server answered, error or not, for a caller that goes on
     * after one refused item; unreachable still fails.
     */
    Answer postForAnswer(String path, Object body) {
        HttpRequest request =
                request(path)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(Json.bytes(body)))
                        .build();
        return exchange(request);
    }

    /** DELETEs a path and answers the response body; a non-2xx answer fails with its detail. */
    String delete(String path) {
        return send(request(path).DELETE().build(), false).orElseThrow();
    }

    /** GETs a path: its body, or empty when the server answers 404. */
    Optional<String> getIfExists(String path) {
        return send(request(path).GET().build(), true);
    }

    /**
     * GETs a path into {@code file} (replaced only when the answer is 2xx: an error leaves no
     * partial file); a non-2xx answer fails with its detail.
     */
    void download(String path, java.nio.file.Path file) {
        java.nio.file.Path partial = file.resolveSibling(file.getFileName() + ".partial");
        try {
            HttpResponse<java.nio.file.Path> response =
                    Http.CLIENT.send(
                            request(path).timeout(Duration.ofHours(6)).GET().build(),
                            HttpResponse.BodyHandlers.ofFile(partial));
            if (response.statusCode() / 100 != 2) {
                String body = java.nio.file.Files.readString(partial);
                throw answered(
                        response.statusCode(), new Answer(response.statusCode(), body).detail());
            }
            java.nio.file.Files.move(
                    partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach " + server, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            try {
                java.nio.file.Files.deleteIfExists(partial);
            } catch (IOException ignored) {
                // the partial file of a failed download; nothing else to do about it
            }
        }
    }

    /** POSTs {@code file} as {@code contentType} and answers the body; non-2xx fails. */
    String upload(String path, java.nio.file.Path file, String contentType) {
        try {
            HttpRequest request =
                    request(path)
                            .timeout(Duration.ofHours(6))
                            .header("Content-Type", contentType)
                            .POST(HttpRequest.BodyPublishers.ofFile(file))
                            .build();
            return exchange(request).orThrow();
        } catch (java.io.FileNotFoundException e) {
            throw new IllegalArgumentException("no such file: " + file);
        }
    }

    private HttpRequest.Builder request(String path) {
        String secret = token != null ? token : System.getenv().getOrDefault("CAIRN_TOKEN", "");
        if (secret.isBlank()) {
            throw new IllegalArgumentException("--server needs --token or CAIRN_TOKEN");
        }
        return HttpRequest.newBuilder(baseUri(server).resolve(path))
                .timeout(Duration.ofMinutes(5))
                .header("Authorization", "Bearer " + secret);
    }

    private Optional<String> send(HttpRequest request, boolean notFoundIsEmpty) {
        Answer answer = exchange(request);
        if (notFoundIsEmpty && answer.status() == 404) {
            return Optional.empty();
        }
        return Optional.of(answer.orThrow());
    }

    private Answer exchange(HttpRequest request) {
        try {
            HttpResponse<String> response =
                    Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach " + server, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
