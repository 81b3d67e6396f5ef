package dev.cairn.api.body;

import java.util.Objects;

/**
 * {@code POST /v1/namespaces/{ns}/transcripts/search} (also the {@code search_transcript} tool's
 * arguments). {@code sessionName} names an ARK conversation and is used when {@code conversationId}
 * is absent.
 */
public record TranscriptSearchBody(
        String query, String conversationId, String sessionName, Integer limit) {

    /** Default number of hits. */
    public static final int DEFAULT_LIMIT = 10;

    public TranscriptSearchBody {
        query = Objects.requireNonNullElse(query, "");
        conversationId = Objects.requireNonNullElse(conversationId, "");
        sessionName = Objects.requireNonNullElse(sessionName, "");
        limit = Objects.requireNonNullElse(limit, DEFAULT_LIMIT);
    }

    /** The conversation to search in, "" for all. */
    public String conversation() {
        return (conversationId.isEmpty() ? sessionName : conversationId).strip();
    }
}
