package dev.cairn.store;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * Which page of a list to return. Every list pages the same way: a page's {@link Page#nextCursor()}
 * is {@link #cursorAfter} its last item's sort key, opaque to callers, and a request's {@link
 * #after()} is that key again. A cursor that no page gave out is refused here, for every list alike
 * (it used to answer the first page of some lists and 400 on others).
 *
 * @param limit at most this many items, 1..{@value #MAX_LIMIT}
 * @param cursor the {@link Page#nextCursor()} of the previous page, or empty for the first page
 * @throws IllegalArgumentException when {@code cursor} is neither empty nor a cursor a page gave
 */
public record PageRequest(int limit, String cursor) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 1000;

    /** What a cursor says before its key, so text that merely decodes is not taken for one. */
    private static final String KEY_PREFIX = "k:";

    public PageRequest {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "illegal limit: " + limit + ", must be in [1, " + MAX_LIMIT + "]");
        }
        Objects.requireNonNull(cursor, "cursor");
        keyOf(cursor);
    }

    public static PageRequest first(int limit) {
        return new PageRequest(limit, "");
    }

    /** The sort key after which this page starts; empty for the first page. */
    public String after() {
        return keyOf(cursor);
    }

    /** The cursor of the page that starts after the item sorted by {@code lastKey}. */
    public static String cursorAfter(String lastKey) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((KEY_PREFIX + lastKey).getBytes(StandardCharsets.UTF_8));
    }

    private static String keyOf(String cursor) {
        if (cursor.isEmpty()) {
            return "";
        }
        try {
            String decoded =
                    new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (decoded.startsWith(KEY_PREFIX)) {
                return decoded.substring(KEY_PREFIX.length());
            }
        } catch (IllegalArgumentException e) {
            // not base64url: refused below
        }
        throw new IllegalArgumentException("illegal cursor: not the nextCursor of a previous page");
    }
}
