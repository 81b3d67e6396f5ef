package dev.cairn.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpMediaType;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * JSON responses and bounded raw request bodies; {@link RequestBodies} parses and binds them.
 * Thread-safe.
 */
public final class Json {

    public static final ObjectMapper MAPPER =
            JsonMapper.builder()
                    .findAndAddModules()
                    .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                    .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                    .build();

    private static final System.Logger LOG = System.getLogger(Json.class.getName());

    private Json() {}

    public static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            // A bug, not a conflict: an internal error with an incident id, not a 409.
            throw new UncheckedIOException("cannot serialise " + value.getClass().getName(), e);
        }
    }

    /** Sends {@code value} as JSON with the given status. */
    public static void send(ServerResponse res, int status, Object value) {
        res.status(Status.create(status));
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(bytes(value));
    }

    /**
     * Reads the raw body, at most {@code limit} bytes: 415 unless the content type is JSON, 413
     * past the limit, 400 for a negative {@code Content-Length}, a body that ends before its
     * declared length, and bytes that are not strict UTF-8 (overlong forms such as {@code C0 AF}
     * for "/", encoded surrogates, truncated sequences); 408 for a body that did not arrive within
     * the body timeout ({@link RequestDeadlines}). This is the one place request bodies are read.
     */
    public static byte[] readBody(ServerRequest req, long limit) {
        requireJsonContentType(req);
        long declared = declaredLength(req);
        if (declared > limit) {
            throw HttpProblem.payloadTooLarge(limit);
        }
        if (!req.content().hasEntity()) {
            return new byte[0];
        }
        byte[] body;
        try (InputStream in = req.content().inputStream()) {
            body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
        } catch (IOException | RuntimeException e) {
            if (e instanceof HttpProblem problem) {
                throw problem;
            }
            Optional<Duration> timedOut = RequestDeadlines.bodyTimedOut(req);
            if (timedOut.isPresent()) {
                throw HttpProblem.requestTimeout(timedOut.get());
            }
            // The client closed or stalled before sending what it declared: its fault, one line.
            LOG.log(
                    Level.INFO,
                    "request body ended early on "
                            + LogText.escape(req.path().path())
                            + " ("
                            + e.getClass().getSimpleName()
                            + ")");
            throw new IllegalArgumentException(
                    "the request body ended before the declared Content-Length");
        }
        if (body.length > limit) {
            throw HttpProblem.payloadTooLarge(limit);
        }
        if (declared >= 0 && body.length != declared) {
            throw new IllegalArgumentException(
                    "the request body has "
                            + body.length
                            + " bytes, but Content-Length declared "
                            + declared);
        }
        requireUtf8(body);
        return body;
    }

    private static void requireJsonContentType(ServerRequest req) {
        if (!req.headers().contains(HeaderNames.CONTENT_TYPE)) {
            return;
        }
        String raw = req.headers().get(HeaderNames.CONTENT_TYPE).get();
        HttpMediaType type;
        try {
            type = req.headers().contentType().orElse(null);
        } catch (RuntimeException e) {
            throw HttpProblem.unsupportedMediaType(LogText.escape(raw));
        }
        if (type == null) {
            return;
        }
        String subtype = type.mediaType().subtype();
        if (!subtype.equals("json") && !subtype.endsWith("+json")) {
            throw HttpProblem.unsupportedMediaType(LogText.escape(type.text()));
        }
    }

    /** The declared Content-Length, -1 when absent; 400 when it is not a non-negative integer. */
    private static long declaredLength(ServerRequest req) {
        if (!req.headers().contains(HeaderNames.CONTENT_LENGTH)) {
            return -1;
        }
        String raw = req.headers().get(HeaderNames.CONTENT_LENGTH).get().strip();
        long value;
        try {
            value = Long.parseLong(raw);
        } catch (NumberFormatException e) {
            value = -1;
        }
        if (value < 0 || !raw.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException(
                    "Content-Length must be a non-negative integer, got '"
                            + LogText.escape(raw)
                            + "'");
        }
        return value;
    }

    /** 400 unless {@code body} is well-formed UTF-8 (no overlong forms, no encoded surrogates). */
    static void requireUtf8(byte[] body) {
        CharsetDecoder decoder =
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(body);
        CharBuffer out = CharBuffer.allocate(body.length + 1);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw new IllegalArgumentException(
                    "the request body is not valid UTF-8 (at byte " + in.position() + ")");
        }
    }
}
