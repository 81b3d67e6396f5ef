package dev.cairn.agents.conversation;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A stored message.
 *
 * @param sequence position in the namespace's message sequence, >= 1
 * @param conversationId the conversation
 * @param queryId the query that produced it
 * @param json the message JSON exactly as stored
 * @param role its role ("" when none)
 * @param content its text content ("" when none)
 * @param flagged whether write safety flagged it
 * @param createdAt when it was stored
 * @param flags the write-safety rule names that matched (empty when none)
 */
public record StoredMessage(
        long sequence,
        String conversationId,
        String queryId,
        String json,
        String role,
        String content,
        boolean flagged,
        Instant createdAt,
        List<String> flags) {

    /** A message without rule names. */
    public StoredMessage(
            long sequence,
            String conversationId,
            String queryId,
            String json,
            String role,
            String content,
            boolean flagged,
            Instant createdAt) {
        this(sequence, conversationId, queryId, json, role, content, flagged, createdAt, List.of());
    }

    public StoredMessage {
        flags = List.copyOf(flags);
        if (sequence < 1) {
            throw new IllegalArgumentException("illegal sequence: " + sequence + ", must be >= 1");
        }
        Objects.requireNonNull(conversationId, "conversationId");
        Objects.requireNonNull(queryId, "queryId");
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** The message id used by transcript search: its sequence number as text. */
    public String messageId() {
        return Long.toString(sequence);
    }
}
