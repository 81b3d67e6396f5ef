package dev.cairn.store;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One page of a list answer. {@code nextCursor} is empty when there is nothing more.
 *
 * @param items the items of this page
 * @param total how many items match in all pages
 * @param nextCursor opaque cursor for the next page, empty on the last page
 */
public record Page<T>(List<T> items, long total, String nextCursor) {

    public Page {
        items = List.copyOf(items);
        Objects.requireNonNull(nextCursor, "nextCursor");
        if (total < 0) {
            throw new IllegalArgumentException("illegal total: " + total + ", must be >= 0");
        }
    }

    /**
     * The page of {@code rows} fetched with one row past {@code limit} (how a query learns whether
     * there is more without counting): the first {@code limit} rows, and when there was one more,
     * the cursor after the last row shown ({@link PageRequest#cursorAfter} of its sort {@code
     * key}).
     */
    public static <T> Page<T> ofLookahead(
            List<T> rows, long total, int limit, Function<T, String> key) {
        if (rows.size() <= limit) {
            return new Page<>(rows, total, "");
        }
        List<T> items = rows.subList(0, limit);
        return new Page<>(items, total, PageRequest.cursorAfter(key.apply(items.get(limit - 1))));
    }

    public boolean hasMore() {
        return !nextCursor.isEmpty();
    }

    /**
     * Hands every item of every page {@code fetch} answers to {@code each}, in order, asking pages
     * of {@code limit} items from the first until one says there is no more.
     */
    public static <T> void forEachItem(
            int limit, Function<PageRequest, Page<T>> fetch, Consumer<? super T> each) {
        PageRequest request = PageRequest.first(limit);
        while (true) {
            Page<T> page = fetch.apply(request);
            page.items().forEach(each);
            if (!page.hasMore()) {
                return;
            }
            request = new PageRequest(limit, page.nextCursor());
        }
    }
}
