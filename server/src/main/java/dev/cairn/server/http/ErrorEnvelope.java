package dev.cairn.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.UUID;

/**
 * How an error answer looks, chosen by path prefix: the compatibility mounts speak their clients'
 * envelopes, everything else RFC 9457 problem details.
 *
 * <ul>
 *   <li>{@link #PROBLEM}: {@code application/problem+json} {@code {type, title, status, detail}};
 *   <li>{@link #ARK} ({@code /ark/...}): {@code {"error": {"code", "message", "requestId"}}} with
 *       ARK's codes {@code VALIDATION_ERROR, PAGINATION_ERROR, BAD_REQUEST, NOT_FOUND,
 *       INTERNAL_ERROR} (statuses without a code of their own use {@code BAD_REQUEST} below 500);
 *       the request id is the request's {@code X-Request-ID} or a new UUID, also sent as that
 *       header;
 *   <li>{@link #ORLOJ} ({@code /orloj/...}): {@code {"error": "..."}}.
 * </ul>
 */
public enum ErrorEnvelope {
    PROBLEM,
    ARK,
    ORLOJ;

    private static final io.helidon.http.HeaderName REQUEST_ID = HeaderNames.create("X-Request-ID");

    /** ARK's error codes. */
    public static final String VALIDATION_ERROR = "VALIDATION_ERROR";

    public static final String PAGINATION_ERROR = "PAGINATION_ERROR";
    public static final String BAD_REQUEST = "BAD_REQUEST";
    public static final String NOT_FOUND = "NOT_FOUND";
    public static final String INTERNAL_ERROR = "INTERNAL_ERROR";

    /** The envelope for a request path. */
    public static ErrorEnvelope forPath(String path) {
        if (path.startsWith("/ark/")) {
            return ARK;
        }
        if (path.startsWith("/orloj/")) {
            return ORLOJ;
        }
        return PROBLEM;
    }

    /**
     * Sends an error unless the response is already sent.
     *
     * @param code ARK's error code, "" for the default of {@code status}
     */
    public void send(
            ServerRequest req, ServerResponse res, int status, String detail, String code) {
        if (res.isSent()) {
            return;
        }
        switch (this) {
            case PROBLEM -> Problems.send(res, status, detail);
            case ARK -> {
                String requestId =
                        req.headers()
                                .first(REQUEST_ID)
                                .filter(s -> !s.isBlank() && s.length() <= 200)
                                .orElseGet(() -> UUID.randomUUID().toString());
                ObjectNode body = Json.MAPPER.createObjectNode();
                ObjectNode error = body.putObject("error");
                error.put("code", code.isEmpty() ? arkCode(status) : code);
                error.put("message", detail);
                error.put("requestId", requestId);
                res.header(REQUEST_ID, requestId);
                Json.send(res, status, body);
            }
            case ORLOJ -> {
                ObjectNode body = Json.MAPPER.createObjectNode();
                body.put("error", detail);
                Json.send(res, status, body);
            }
        }
    }

    static String arkCode(int status) {
        if (status >= 500) {
            return INTERNAL_ERROR;
        }
        return switch (status) {
            case 400, 422 -> VALIDATION_ERROR;
            case 404 -> NOT_FOUND;
            default -> BAD_REQUEST;
        };
    }
}
