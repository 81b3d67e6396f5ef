package dev.cairn.agents.conversation;

import java.util.List;

/**
 * A conversation's history as a runtime replays it to a model: every unexpired message when there
 * are at most the bound, otherwise the conversation's first system message followed by the newest
 * messages (see {@link ConversationRepository#history}).
 *
 * @param messages the messages answered, in sequence order
 * @param total how many unexpired messages the conversation has
 * @param omitted how many of them are left out (0 when the whole conversation is answered)
 */
public record ConversationHistory(List<StoredMessage> messages, long total, long omitted) {

    public ConversationHistory {
        messages = List.copyOf(messages);
        if (omitted < 0 || total != messages.size() + omitted) {
            throw new IllegalArgumentException(
                    "illegal total "
                            + total
                            + " or omitted "
                            + omitted
                            + ", must be >= 0 and total = "
                            + messages.size()
                            + " messages + omitted");
        }
    }

    /** Whether messages were left out. */
    public boolean windowed() {
        return omitted > 0;
    }
}
