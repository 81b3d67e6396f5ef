package dev.cairn.server.http;

import dev.cairn.api.view.ListAnswer;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import io.helidon.webserver.http.ServerRequest;
import java.util.function.Function;

/** The {@code limit}/{@code cursor} query parameters; {@link ListAnswer} is the list shape. */
public final class Paging {

    private Paging() {}

    /**
     * The page a list request asks for: 400 naming the parameter for a {@code limit} out of range
     * or a {@code cursor} that is not a {@code nextCursor} an earlier page gave (every list the
     * same, see {@link PageRequest}).
     */
    public static PageRequest pageRequest(ServerRequest req) {
        int limit = intParam(req, "limit", PageRequest.DEFAULT_LIMIT);
        String cursor = req.query().first("cursor").orElse("");
        PageRequest.first(limit); // a bad limit is named by its own message
        try {
            return new PageRequest(limit, cursor);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "query parameter 'cursor' must be the nextCursor of an earlier page, got '"
                            + LogText.escape(cursor)
                            + "'");
        }
    }

    /** A page in the list shape, each item shown as {@code view} makes it. */
    public static <S, T> ListAnswer<T> answer(Page<S> page, Function<S, T> view) {
        return new ListAnswer<>(
                page.items().stream().map(view).toList(),
                page.total(),
                page.hasMore() ? page.nextCursor() : null);
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
