package dev.cairn.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

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

    /** Reads the raw body, at most {@code limit} bytes, checking the content type is JSON. */
    public static byte[] readBody(ServerRequest req, long limit) {
        req.headers()
                .contentType()
                .ifPresent(
                        type -> {
                            String subtype = type.mediaType().subtype();
                            if (!subtype.equals("json") && !subtype.endsWith("+json")) {
                                throw HttpProblem.unsupportedMediaType(type.text());
                            }
                        });
        var declared = req.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() > limit) {
            throw HttpProblem.payloadTooLarge(limit);
        }
        if (!req.content().hasEntity()) {
            return new byte[0];
        }
        try (InputStream in = req.content().inputStream()) {
            byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
            if (body.length > limit) {
                throw HttpProblem.payloadTooLarge(limit);
            }
            return body;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
