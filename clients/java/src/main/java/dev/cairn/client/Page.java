package dev.cairn.client;

/**
 * Which page of a list to read: at most {@code limit} items (null: the server's default, 50; at
 * most 1000) after {@code cursor} (empty: the first page; otherwise the {@code nextCursor} of the
 * page before).
 */
public record Page(Integer limit, String cursor) {

    /** The first page at the server's default size. */
    public static final Page FIRST = new Page(null, "");

    public Page {
        cursor = cursor == null ? "" : cursor;
    }

    /** The first page of at most {@code limit} items. */
    public static Page first(int limit) {
        return new Page(limit, "");
    }

    /** The page after the one that answered {@code nextCursor}, of the same size. */
    public Page next(String nextCursor) {
        return new Page(limit, nextCursor);
    }

    void addTo(Query query) {
        query.add("limit", limit == null ? null : String.valueOf(limit));
        query.add("cursor", cursor);
    }
}
