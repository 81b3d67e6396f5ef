package dev.cairn.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The answers of ARK's Memory API ({@code /ark/{ns}}), in ARK's field names (snake_case, and its
 * paging fields): what the server writes and the client's conversation calls read.
 */
public final class ArkAnswers {

    private ArkAnswers() {}

    /** {@code POST conversations}. */
    public record Created(@JsonProperty("conversation_id") String conversationId) {}

    /** {@code GET conversations}. */
    public record Conversations(List<String> conversations) {}

    /** {@code GET conversations/{id}}: every message of the conversation. */
    public record Conversation(
            @JsonProperty("conversation_id") String conversationId, List<Message> messages) {}

    /**
     * One stored message, exactly as it was sent (secrets redacted), with {@code flags}: the
     * write-path rules that matched it, only when some did (an extra field ARK's client ignores).
     */
    public record Message(
            String timestamp,
            @JsonProperty("conversation_id") String conversationId,
            @JsonProperty("query_id") String queryId,
            JsonNode message,
            long sequence,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> flags) {}

    /**
     * {@code GET messages}: offset paging, {@code nextCursor} (a string) only when there is more.
     */
    public record Messages(
            List<Message> items,
            long total,
            boolean hasMore,
            @JsonInclude(JsonInclude.Include.NON_NULL) String nextCursor) {}

    /** The answer of the deletes. */
    public record Success(String status, String message) {

        public static Success of(String message) {
            return new Success("success", message);
        }
    }

    /** {@code GET /memory-status}: totals and per-conversation counts. */
    public record MemoryStatus(
            @JsonProperty("total_conversations") long totalConversations,
            @JsonProperty("total_messages") long totalMessages,
            java.util.Map<String, ConversationStatus> conversations) {}

    /** One conversation's counts in {@link MemoryStatus}. */
    public record ConversationStatus(
            @JsonProperty("message_count") long messageCount,
            @JsonProperty("query_count") long queryCount) {}
}
