package dev.cairn.agents.conversation;

import java.util.Objects;

/**
 * Which messages to list; an empty part matches every value.
 *
 * @param conversationId only this conversation, or "" for all
 * @param queryId only this query, or "" for all
 */
public record MessageFilter(String conversationId, String queryId) {

    public static final MessageFilter ALL = new MessageFilter("", "");

    public MessageFilter {
        conversationId = Objects.requireNonNull(conversationId, "conversationId").strip();
        queryId = Objects.requireNonNull(queryId, "queryId").strip();
    }

    public static MessageFilter conversation(String conversationId) {
        return new MessageFilter(conversationId, "");
    }
}
