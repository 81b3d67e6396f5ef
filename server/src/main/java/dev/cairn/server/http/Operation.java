package dev.cairn.server.http;

import java.util.Locale;
import java.util.Optional;

/**
 * The operations an operator watches one by one on {@code /metrics}: each is one route (a method
 * and a path shape), so the series count stays fixed whatever ids the paths carry.
 */
public enum Operation {
    RETRIEVE("POST", "/v1/namespaces/*/retrieve"),
    RECALL("POST", "/v1/namespaces/*/recall"),
    JUDGE("POST", "/v1/namespaces/*/judge"),
    INGEST("POST", "/v1/namespaces/*/documents"),
    REMEMBER("POST", "/v1/namespaces/*/memories"),
    EXTRACT("POST", "/v1/namespaces/*/extract"),
    /** A tool call over the HTTP tools route ({@code /tools/{name}}). */
    TOOL_CALL("POST", "/v1/namespaces/*/tools/*"),
    /** One MCP message (tool calls and the rest of the protocol) on {@code /mcp/{ns}}. */
    MCP("POST", "/mcp/*");

    private final String method;
    private final String[] segments;

    Operation(String method, String shape) {
        this.method = method;
        this.segments = shape.substring(1).split("/");
    }

    /** The name on the {@code operation} tag. */
    public String tag() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The operation a request is, if it is one of these. */
    public static Optional<Operation> of(String method, String path) {
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        String[] parts = trimmed.startsWith("/") ? trimmed.substring(1).split("/") : new String[0];
        for (Operation op : values()) {
            if (op.method.equals(method) && op.matches(parts)) {
                return Optional.of(op);
            }
        }
        return Optional.empty();
    }

    private boolean matches(String[] parts) {
        if (parts.length != segments.length) {
            return false;
        }
        for (int i = 0; i < parts.length; i++) {
            if (!segments[i].equals("*") && !segments[i].equals(parts[i])) {
                return false;
            }
            if (segments[i].equals("*") && parts[i].isEmpty()) {
                return false;
            }
        }
        return true;
    }
}
