package dev.cairn.agents.conversation;

import java.util.List;

/**
 * One offset page of messages, in sequence order.
 *
 * @param items the messages of the page
 * @param total how many messages match the filter in all
 * @param offset the offset of the first item
 */
public record MessagePage(List<StoredMessage> items, long total, int offset) {
    public MessagePage {
        items = List.copyOf(items);
        if (total < 0 || offset < 0) {
            throw new IllegalArgumentException(
                    "illegal total " + total + " or offset " + offset + ", must be >= 0");
        }
    }

    /** Whether messages follow this page. */
    public boolean hasMore() {
        return offset + (long) items.size() < total;
    }

    /** The offset of the next page. */
    public int nextOffset() {
        return offset + items.size();
    }
}
