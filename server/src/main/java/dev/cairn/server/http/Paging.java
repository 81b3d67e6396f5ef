package dev.cairn.server.http;

import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import io.helidon.webserver.http.ServerRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The {@code limit}/{@code cursor} query parameters and the one list-answer shape of API.md. */
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
                    "query parameter '" + name + "' must be an integer, got '" + raw.get() + "'");
        }
    }

    /** {@code {"items": [...], "total": N, "nextCursor": "..."}}; nextCursor only when more. */
    public static <T> Map<String, Object> listAnswer(Page<T> page, Function<T, ?> view) {
        Map<String, Object> answer = new LinkedHashMap<>();
        List<?> items = page.items().stream().map(view).toList();
        answer.put("items", items);
        answer.put("total", page.total());
        if (page.hasMore()) {
            answer.put("nextCursor", page.nextCursor());
        }
        return answer;
    }
}
