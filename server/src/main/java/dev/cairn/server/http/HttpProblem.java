package dev.cairn.server.http;

import java.time.Duration;

/**
 * An error whose HTTP status is not one of the JDK exception mappings (400, 404, 409): 401, 403,
 * 405, 408, 413, 415. The message is the problem's {@code detail} and is always safe to show.
 */
public final class HttpProblem extends RuntimeException {

    private final int status;
    private final String code;

    public HttpProblem(int status, String detail) {
        this(status, "", detail);
    }

    /**
     * A problem with a machine-readable code for envelopes that carry one (ARK's {@code
     * error.code}); "" for the status's default.
     */
    public HttpProblem(int status, String code, String detail) {
        super(detail, null, false, false);
        this.code = java.util.Objects.requireNonNull(code, "code");
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException(
                    "illegal status: " + status + ", must be in [400, 599]");
        }
        this.status = status;
    }

    public int status() {
        return status;
    }

    /** The error code, "" for the status's default. */
    public String code() {
        return code;
    }

    /** 422: a write refused by write safety, naming the rule. */
    public static HttpProblem unprocessable(String detail) {
        return new HttpProblem(422, detail);
    }

    public static HttpProblem unauthorized(String detail) {
        return new HttpProblem(401, detail);
    }

    public static HttpProblem forbidden(String detail) {
        return new HttpProblem(403, detail);
    }

    public static HttpProblem methodNotAllowed(String method, String path) {
        return new HttpProblem(405, "method " + method + " is not allowed on " + path);
    }

    /** 408: the request body did not arrive in full within the body timeout. */
    public static HttpProblem requestTimeout(Duration bodyTimeout) {
        return new HttpProblem(
                408,
                "the request body did not arrive within "
                        + bodyTimeout.toSeconds()
                        + " s of the request head; send it at once");
    }

    public static HttpProblem payloadTooLarge(long limit) {
        return new HttpProblem(413, "request body exceeds the limit of " + limit + " bytes");
    }

    public static HttpProblem unsupportedMediaType(String contentType) {
        return new HttpProblem(
                415, "unsupported content type '" + contentType + "', send application/json");
    }
}
