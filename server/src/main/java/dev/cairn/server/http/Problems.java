package dev.cairn.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.agents.conversation.MessageTooLargeException;
import dev.cairn.agents.kv.ValueTooLargeException;
import dev.cairn.retrieval.PayloadTooLargeException;
import dev.cairn.safety.WriteBlockedException;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.lang.System.Logger.Level;
import java.util.NoSuchElementException;

/**
 * Writes RFC 9457 problem details and maps exceptions onto them. A 500 never carries the real
 * message: it goes to the log with a correlation id that the response names.
 */
public final class Problems {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final System.Logger LOG = System.getLogger(Problems.class.getName());

    private Problems() {}

    /** Registers the one set of error handlers every route shares. */
    public static void register(HttpRouting.Builder routing) {
        routing.error(
                        HttpProblem.class,
                        (req, res, e) ->
                                ErrorEnvelope.forPath(req.path().path())
                                        .send(req, res, e.status(), e.getMessage(), e.code()))
                .error(
                        WriteBlockedException.class,
                        (req, res, e) -> {
                            MetricsFilter.markBlocked(req);
                            ErrorEnvelope.forPath(req.path().path())
                                    .send(req, res, 422, e.getMessage(), "");
                        })
                .error(
                        MessageTooLargeException.class,
                        (req, res, e) ->
                                ErrorEnvelope.forPath(req.path().path())
                                        .send(req, res, 413, e.getMessage(), ""))
                .error(
                        ValueTooLargeException.class,
                        (req, res, e) ->
                                ErrorEnvelope.forPath(req.path().path())
                                        .send(req, res, 413, e.getMessage(), ""))
                .error(
                        PayloadTooLargeException.class,
                        (req, res, e) -> send(res, 413, e.getMessage()))
                .error(
                        dev.cairn.judge.PayloadTooLargeException.class,
                        (req, res, e) -> send(res, 413, e.getMessage()))
                .error(
                        NoSuchElementException.class,
                        (req, res, e) -> send(req, res, 404, safe(e.getMessage(), "not found")))
                .error(
                        IllegalArgumentException.class,
                        (req, res, e) -> send(req, res, 400, safe(e.getMessage(), "bad request")))
                .error(
                        IllegalStateException.class,
                        (req, res, e) -> send(req, res, 409, safe(e.getMessage(), "conflict")))
                .error(io.helidon.http.HttpException.class, Problems::httpException)
                .error(Throwable.class, Problems::internalError);
    }

    /**
     * Helidon's own answers: static content (the console) says "304 Not Modified" to a browser
     * revalidating its cache by throwing one, with the ETag already set; a 4xx keeps its status.
     */
    private static void httpException(
            ServerRequest req, ServerResponse res, io.helidon.http.HttpException e) {
        int code = e.status().code();
        if (code >= 500) {
            internalError(req, res, e);
        } else if (code >= 400) {
            send(req, res, code, e.status().reasonPhrase().toLowerCase(java.util.Locale.ROOT));
        } else if (!res.isSent()) {
            res.status(e.status()).send();
        }
    }

    private static void internalError(ServerRequest req, ServerResponse res, Throwable e) {
        String incident = Long.toHexString(System.nanoTime());
        LOG.log(
                Level.ERROR,
                "incident "
                        + incident
                        + " on "
                        + req.prologue().method().text()
                        + " "
                        + LogText.escape(req.path().path()),
                e);
        send(req, res, 500, "internal error, incident " + incident);
    }

    private static String safe(String message, String fallback) {
        return message == null || message.isBlank() ? fallback : message;
    }

    /**
     * Sends an error in the envelope of the request's path ({@link ErrorEnvelope#forPath}): problem
     * details everywhere except the ARK and Orloj compatibility mounts.
     */
    public static void send(ServerRequest req, ServerResponse res, int status, String detail) {
        ErrorEnvelope.forPath(req.path().path()).send(req, res, status, detail, "");
    }

    /** Sends a problem document with the given status and detail. */
    public static void send(ServerResponse res, int status, String detail) {
        Status s = Status.create(status);
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("type", "about:blank");
        body.put("title", s.reasonPhrase());
        body.put("status", status);
        body.put("detail", detail);
        if (res.isSent()) {
            return;
        }
        res.status(s);
        res.header(HeaderNames.CONTENT_TYPE, MEDIA_TYPE);
        res.send(Json.bytes(body));
    }
}
