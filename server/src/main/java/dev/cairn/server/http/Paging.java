package dev.cairn.server.http;

import dev.cairn.store.PageRequest;
import io.helidon.webserver.http.ServerRequest;

/** The {@code limit}/{@code cursor} query parameters; {@link ListAnswer} is the list shape. */
public final class Paging {

    private Paging() {}

    public static PageRequest pageRequest(ServerRequest req) {
        int limit = intParam(req, "limit", PageRequest.DEFAULT_LIMIT);
        String cursor = req.query().first("cursor").orElse("");
        return new PageRequest(limit, cursor);
    }

    public static int intParam(ServerRequest req, String name, int defaultValue) {
        var raw = req.query().first(name);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(raw.get().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "query parameter '"
                            + name
                            + "' must be an integer, got '"
                            + LogText.escape(raw.get())
                            + "'");
        }
    }
}
