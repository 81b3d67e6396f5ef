package dev.cairn.server.transfer;

import dev.cairn.agents.conversation.ConversationCopy;
import java.time.Instant;
import java.util.List;

/**
 * An ARK conversation as one line of the export file: its id, when it began, and its unexpired
 * messages in order ({@link ConversationCopy.Message}: the JSON exactly as stored, query id, safety
 * flags, time and expiry, {@code null} for none).
 */
record ExportedConversation(
        String type, String id, Instant createdAt, List<ConversationCopy.Message> messages) {

    static final String TYPE = "conversation";

    static ExportedConversation of(ConversationCopy c) {
        return new ExportedConversation(TYPE, c.id(), c.createdAt(), c.messages());
    }

    /**
     * The conversation this line describes.
     *
     * @throws IllegalArgumentException (or NullPointerException) naming what is missing
     */
    ConversationCopy copy() {
        return new ConversationCopy(id, createdAt, messages);
    }
}
