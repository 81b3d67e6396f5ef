package dev.cairn.server.http;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;

/**
 * Answers the errors the web server finds before routing (a header line with bad bytes, headers too
 * large, a request line too long, an unparseable prologue) as problem+json like every other error.
 * The detail is Cairn's own plain sentence per status: the server's message names its classes and
 * may echo attacker bytes, so it is logged (escaped, one line) and never sent.
 */
public final class ProtocolErrors implements DirectHandler {

    private static final System.Logger LOG = System.getLogger(ProtocolErrors.class.getName());

    private ProtocolErrors() {}

    /** This handler for every kind of protocol-level event. */
    public static DirectHandlers handlers() {
        DirectHandlers.Builder builder = DirectHandlers.builder();
        ProtocolErrors handler = new ProtocolErrors();
        for (EventType type : EventType.values()) {
            builder.addHandler(type, handler);
        }
        return builder.build();
    }

    @Override
    public TransportResponse handle(
            TransportRequest request,
            EventType eventType,
            Status status,
            ServerResponseHeaders headers,
            Throwable thrown,
            System.Logger logger) {
        LOG.log(
                status.code() >= 500 ? Level.WARNING : Level.INFO,
                "refused before routing: "
                        + status.code()
                        + " "
                        + LogText.escape(request.method())
                        + " "
                        + LogText.escape(request.path())
                        + " ("
                        + LogText.escape(thrown == null ? "" : thrown.getMessage())
                        + ")");
        return handle(request, eventType, status, headers, "");
    }

    @Override
    public TransportResponse handle(
            TransportRequest request,
            EventType eventType,
            Status status,
            ServerResponseHeaders headers,
            String message) {
        String body =
                "{\"type\":\"about:blank\",\"title\":\""
                        + status.reasonPhrase()
                        + "\",\"status\":"
                        + status.code()
                        + ",\"detail\":\""
                        + detail(status.code())
                        + "\"}";
        headers.set(HeaderNames.CONTENT_TYPE, Problems.MEDIA_TYPE);
        return TransportResponse.builder()
                .status(status)
                .headers(headers)
                .keepAlive(false)
                .entity(body.getBytes(StandardCharsets.UTF_8))
                .build();
    }

    /** A plain sentence per status; never the server's own message. */
    static String detail(int status) {
        return switch (status) {
            case 400 ->
                    "the request is not well-formed HTTP (request line, header names or values,"
                            + " or framing)";
            case 403 -> "the request is not allowed";
            case 413 -> "the request body is too large";
            case 414 -> "the request line (method and URL) is too long";
            case 431 -> "the request headers are too large";
            case 505 -> "the HTTP version is not supported, use HTTP/1.1";
            default ->
                    status >= 500
                            ? "the server could not handle the request"
                            : "the request could not be handled";
        };
    }
}
