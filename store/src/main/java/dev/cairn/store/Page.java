package dev.cairn.store;

import java.util.List;
import java.util.Objects;

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

    public boolean hasMore() {
        return !nextCursor.isEmpty();
    }
}
