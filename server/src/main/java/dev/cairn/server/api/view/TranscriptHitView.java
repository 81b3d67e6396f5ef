package dev.cairn.server.api.view;

import dev.cairn.agents.conversation.TranscriptHit;

/** A transcript search hit: a short snippet with its conversation and message ids. */
public record TranscriptHitView(
        String conversationId,
        String messageId,
        String queryId,
        String role,
        String snippet,
        double score) {

    public static TranscriptHitView of(TranscriptHit h) {
        return new TranscriptHitView(
                h.conversationId(), h.messageId(), h.queryId(), h.role(), h.snippet(), h.score());
    }
}
