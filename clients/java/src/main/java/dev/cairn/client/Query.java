package dev.cairn.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.StringJoiner;

/** A URL query being built: parameters in order, empty ones left out. Not thread-safe. */
final class Query {

    private final StringJoiner parts = new StringJoiner("&", "?", "").setEmptyValue("");

    void add(String name, String value) {
        if (value != null && !value.isEmpty()) {
            parts.add(encode(name) + "=" + encode(value));
        }
    }

    /** A list the server reads comma-separated. */
    void add(String name, List<String> values) {
        if (values != null && !values.isEmpty()) {
            add(name, String.join(",", values));
        }
    }

    void add(String name, boolean value) {
        if (value) {
            add(name, "true");
        }
    }

    @Override
    public String toString() {
        return parts.toString();
    }

    /** One path segment or query value, percent-encoded (a space as {@code %20}). */
    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
