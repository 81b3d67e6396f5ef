package dev.cairn.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Sends one call to the server and reads its answer: JSON in and out, the bearer token, the request
 * timeout, retries of idempotent calls ({@link RetryPolicy}) and problem+json answers as {@link
 * CairnException}. Thread-safe (the JDK's {@link HttpClient} and a configured {@link ObjectMapper}
 * are).
 */
final class Transport {

    /** The longest error body kept as a non-problem answer's detail. */
    private static final int MAX_DETAIL_CHARS = 500;

    /**
     * Requests leave out null fields, so the server applies its own defaults; answers may gain
     * fields (docs/api.md), so unknown ones are skipped.
     */
    static final ObjectMapper MAPPER =
            new ObjectMapper()
                    .setSerializationInclusion(JsonInclude.Include.NON_NULL)
                    .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final HttpClient http;
    private final String base;
    private final String token;
    private final Duration requestTimeout;
    private final RetryPolicy retries;

    Transport(
            HttpClient http,
            String base,
            String token,
            Duration requestTimeout,
            RetryPolicy retries) {
        this.http = http;
        this.base = base;
        this.token = token;
        this.requestTimeout = requestTimeout;
        this.retries = retries;
    }

    /**
     * One call.
     *
     * @param method the HTTP method
     * @param path the path and query under the base URI, starting with {@code /}
     * @param body the request body as JSON, or null for none
     * @param idempotent whether the call may be sent again after a failure (GET, PUT, DELETE and
     *     the POSTs the API declares idempotent)
     * @param answer the answer's type, or null to ignore the body (204)
     */
    <T> T call(String method, String path, Object body, boolean idempotent, JavaType answer) {
        return call(method, path, body, idempotent, answer, 0);
    }

    /**
     * One call whose answer has a body of the same type under one non-2xx status too ({@code GET
     * /health}'s 503 for DOWN); that status is then an answer, neither an error nor a retry.
     */
    <T> T call(
            String method,
            String path,
            Object body,
            boolean idempotent,
            JavaType answer,
            int alsoAnswerStatus) {
        HttpRequest request = request(method, path, body);
        int attempts = idempotent ? retries.maxAttempts() : 1;
        for (int attempt = 1; ; attempt++) {
            HttpResponse<String> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                if (attempt >= attempts) {
                    throw new UncheckedIOException(
                            method + " " + path + " failed after " + attempt + " attempt(s)", e);
                }
                pause(retries.backoff(attempt));
                continue;
            } catch (InterruptedException e) {
                throw interrupted(e);
            }
            int status = response.statusCode();
            if (status < 300 || status == alsoAnswerStatus) {
                return read(response, answer);
            }
            if (attempt < attempts && (status == 503 || status == 429)) {
                Optional<Duration> retryAfter = retryAfter(response);
                if (retryAfter.isEmpty()
                        || retryAfter.get().compareTo(retries.maxRetryAfter()) <= 0) {
                    pause(retryAfter.orElse(retries.backoff(attempt)));
                    continue;
                }
            }
            throw problem(response);
        }
    }

    private HttpRequest request(String method, String path, Object body) {
        HttpRequest.Builder builder =
                HttpRequest.newBuilder(URI.create(base + path))
                        .timeout(requestTimeout)
                        .header("Accept", "application/json, application/problem+json");
        if (body == null) {
            builder.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            builder.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(json(body)));
        }
        if (!token.isEmpty()) {
            builder.header("Authorization", "Bearer " + token);
        }
        return builder.build();
    }

    private static byte[] json(Object body) {
        try {
            return MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write the request body as JSON: " + e, e);
        }
    }

    private static <T> T read(HttpResponse<String> response, JavaType answer) {
        if (answer == null) {
            return null;
        }
        try {
            return MAPPER.readValue(response.body(), answer);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(
                    "the answer of "
                            + response.request().method()
                            + " "
                            + response.uri().getPath()
                            + " is not the JSON of "
                            + answer.getRawClass().getSimpleName(),
                    e);
        }
    }

    /** The error answer as an exception: the problem's members when it is one, else the body. */
    static CairnException problem(HttpResponse<String> response) {
        int status = response.statusCode();
        String text = response.body() == null ? "" : response.body();
        String contentType = response.headers().firstValue("Content-Type").orElse("");
        if (contentType.contains("json")) {
            try {
                JsonNode node = MAPPER.readTree(text);
                if (node != null && node.isObject()) {
                    return new CairnException(
                            status,
                            node.path("title").asText("HTTP " + status),
                            node.has("detail") ? node.path("detail").asText("") : envelope(node),
                            node.path("type").asText("about:blank"),
                            node);
                }
            } catch (JsonProcessingException e) {
                // not JSON after all: kept as text below
            }
        }
        String detail =
                text.length() > MAX_DETAIL_CHARS
                        ? text.substring(0, MAX_DETAIL_CHARS) + "..."
                        : text;
        return new CairnException(status, "HTTP " + status, detail.strip(), "about:blank", null);
    }

    /**
     * The message of an error that is JSON but not problem+json: ARK's {@code {"error": {"code",
     * "message"}}} and Orloj's {@code {"error": "..."}}; "" for any other.
     */
    private static String envelope(JsonNode node) {
        JsonNode error = node.path("error");
        return error.isObject() ? error.path("message").asText("") : error.asText("");
    }

    /** {@code Retry-After} in seconds or as an HTTP date; absent when missing or unreadable. */
    static Optional<Duration> retryAfter(HttpResponse<?> response) {
        Optional<String> header = response.headers().firstValue("Retry-After").map(String::strip);
        if (header.isEmpty()) {
            return Optional.empty();
        }
        String value = header.get();
        try {
            long seconds = Long.parseLong(value);
            return seconds < 0 ? Optional.empty() : Optional.of(Duration.ofSeconds(seconds));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant at =
                        ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME)
                                .toInstant();
                Duration wait = Duration.between(Instant.now(), at);
                return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
            } catch (DateTimeParseException notDate) {
                return Optional.empty();
            }
        }
    }

    private static void pause(Duration wait) {
        try {
            Thread.sleep(wait);
        } catch (InterruptedException e) {
            throw interrupted(e);
        }
    }

    private static UncheckedIOException interrupted(InterruptedException e) {
        Thread.currentThread().interrupt();
        InterruptedIOException io = new InterruptedIOException("interrupted");
        io.initCause(e);
        return new UncheckedIOException(io);
    }
}
