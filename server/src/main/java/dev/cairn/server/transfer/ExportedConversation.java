package dev.cairn.server.transfer;

import dev.cairn.agents.conversation.ConversationCopy;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * An ARK conversation as one line of the export file: its id, when it began, and its unexpired
 * messages in order with the JSON exactly as stored, their query ids, safety flags, times and
 * expiry ({@code null} for none).
 */
record ExportedConversation(String type, String id, Instant createdAt, List<Message> messages) {

    static final String TYPE = "conversation";

    /** One message. */
    record Message(
            String queryId,
            String json,
            String role,
            String content,
            boolean flagged,
            List<String> flags,
            Instant createdAt,
            Instant expiresAt) {}

    static ExportedConversation of(ConversationCopy c) {
        return new ExportedConversation(
                TYPE,
                c.id(),
                c.createdAt(),
                c.messages().stream()
                        .map(
                                m ->
                                        new Message(
                                                m.queryId(),
                                                m.json(),
                                                m.role(),
                                                m.content(),
                                                m.flagged(),
                                                m.flags(),
                                                m.createdAt(),
                                                m.expiresAt().orElse(null)))
                        .toList());
    }

    /**
     * The conversation this line describes.
     *
     * @throws IllegalArgumentException (or NullPointerException) naming what is missing
     */
    ConversationCopy copy() {
        return new ConversationCopy(
                id,
                createdAt,
                messages.stream()
                        .map(
                                m ->
                                        new ConversationCopy.Message(
                                                m.queryId(),
                                                m.json(),
                                                m.role(),
                                                m.content(),
                                                m.flagged(),
                                                m.flags(),
                                                m.createdAt(),
                                                Optional.ofNullable(m.expiresAt())))
                        .toList());
    }
}
