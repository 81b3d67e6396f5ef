package dev.cairn.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The one list shape of the API: {@code {"items": [...], "total": N, "nextCursor": "..."}}, {@code
 * nextCursor} only when there is more (pass it back as {@code cursor} for the next page).
 */
public record ListAnswer<T>(
        List<T> items, long total, @JsonInclude(JsonInclude.Include.NON_NULL) String nextCursor) {

    /** Everything at once: no further page. */
    public static <T> ListAnswer<T> all(List<T> items) {
        return new ListAnswer<>(List.copyOf(items), items.size(), null);
    }
}
