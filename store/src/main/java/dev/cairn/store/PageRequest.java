package dev.cairn.store;

import java.util.Objects;

/**
 * Which page of a list to return.
 *
 * @param limit at most this many items, 1..{@value #MAX_LIMIT}
 * @param cursor the {@link Page#nextCursor()} of the previous page, or empty for the first page
 */
public record PageRequest(int limit, String cursor) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 1000;

    public PageRequest {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "illegal limit: " + limit + ", must be in [1, " + MAX_LIMIT + "]");
        }
        Objects.requireNonNull(cursor, "cursor");
    }

    public static PageRequest first(int limit) {
        return new PageRequest(limit, "");
    }
}
