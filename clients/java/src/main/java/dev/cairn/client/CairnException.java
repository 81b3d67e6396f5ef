package dev.cairn.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * An answer of the server that is not a success: the problem+json (RFC 9457) the server sends for
 * every error, as {@code status}, {@code title}, {@code detail} and {@code type}, with the whole
 * problem as it came (a problem may carry more members). An error answer that is not problem+json
 * (a proxy's HTML page, say) keeps its status, takes the HTTP reason as title and the start of the
 * body as detail, and its {@link #problem()} is an empty object.
 */
public final class CairnException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String title;
    private final String detail;
    private final String type;
    private final transient JsonNode problem;

    CairnException(int status, String title, String detail, String type, JsonNode problem) {
        super(status + " " + title + (detail.isEmpty() ? "" : ": " + detail));
        this.status = status;
        this.title = title;
        this.detail = detail;
        this.type = type;
        this.problem = problem == null ? JsonNodeFactory.instance.objectNode() : problem;
    }

    /** The HTTP status (404, 409, ...). */
    public int status() {
        return status;
    }

    /** The problem's short summary ("Not Found"). */
    public String title() {
        return title;
    }

    /** What went wrong with this request, in the server's words; empty when it said nothing. */
    public String detail() {
        return detail;
    }

    /** The problem type URI; {@code about:blank} when the server named none. */
    public String type() {
        return type;
    }

    /** The problem object as the server sent it. */
    public JsonNode problem() {
        return problem.deepCopy();
    }
}
