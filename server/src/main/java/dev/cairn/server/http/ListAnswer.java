package dev.cairn.server.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.store.Page;
import java.util.List;
import java.util.function.Function;

/**
 * The one list shape of API.md: {@code {"items": [...], "total": N, "nextCursor": "..."}}, {@code
 * nextCursor} only when there is more.
 */
public record ListAnswer<T>(
        List<T> items, long total, @JsonInclude(JsonInclude.Include.NON_NULL) String nextCursor) {

    /** A page with each item shown as {@code view} makes it. */
    public static <S, T> ListAnswer<T> of(Page<S> page, Function<S, T> view) {
        return new ListAnswer<>(
                page.items().stream().map(view).toList(),
                page.total(),
                page.hasMore() ? page.nextCursor() : null);
    }

    /** Everything at once: no further page. */
    public static <T> ListAnswer<T> all(List<T> items) {
        return new ListAnswer<>(List.copyOf(items), items.size(), null);
    }
}
