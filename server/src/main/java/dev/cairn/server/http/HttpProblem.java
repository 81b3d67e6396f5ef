package dev.cairn.server.http;

/**
 * An error whose HTTP status is not one of the JDK exception mappings (400, 404, 409): 401, 403,
 * 405, 413, 415. The message is the problem's {@code detail} and is always safe to show.
 */
public final class HttpProblem extends RuntimeException {

    private final int status;

    public HttpProblem(int status, String detail) {
        super(detail, null, false, false);
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException(
                    "illegal status: " + status + ", must be in [400, 599]");
        }
        this.status = status;
    }

    public int status() {
        return status;
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

    public static HttpProblem payloadTooLarge(long limit) {
        return new HttpProblem(413, "request body exceeds the limit of " + limit + " bytes");
    }

    public static HttpProblem unsupportedMediaType(String contentType) {
        return new HttpProblem(
                415, "unsupported content type '" + contentType + "', send application/json");
    }
}
