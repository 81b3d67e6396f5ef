package dev.cairn.agents.conversation;

import java.util.Objects;

/**
 * One transcript search hit: a compact snippet of a message.
 *
 * @param conversationId the message's conversation
 * @param messageId its id (sequence number)
 * @param queryId the query that produced it
 * @param role its role
 * @param snippet at most {@link Transcripts#SNIPPET_LENGTH} characters around the best match
 * @param score fused score
 */
public record TranscriptHit(
        String conversationId,
        String messageId,
        String queryId,
        String role,
        String snippet,
        double score) {
    public TranscriptHit {
        Objects.requireNonNull(conversationId, "conversationId");
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(queryId, "queryId");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(snippet, "snippet");
    }
}
