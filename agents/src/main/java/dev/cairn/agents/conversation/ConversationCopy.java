package dev.cairn.agents.conversation;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A conversation as a namespace export carries it: its id, when it began, and its unexpired
 * messages in order, each with its query id, stored JSON, the text search reads, its safety flags,
 * when it was written and when it expires.
 */
public record ConversationCopy(String id, Instant createdAt, List<Message> messages) {

    public ConversationCopy {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(createdAt, "createdAt");
        messages = List.copyOf(messages);
    }

    /** One message. */
    public record Message(
            String queryId,
            String json,
            String role,
            String content,
            boolean flagged,
            List<String> flags,
            Instant createdAt,
            Optional<Instant> expiresAt) {

        public Message {
            Objects.requireNonNull(queryId, "queryId");
            Objects.requireNonNull(json, "json");
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(content, "content");
            flags = List.copyOf(flags);
            Objects.requireNonNull(createdAt, "createdAt");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }
    }
}
