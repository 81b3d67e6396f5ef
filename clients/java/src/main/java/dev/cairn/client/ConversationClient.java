package dev.cairn.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.api.view.ArkAnswers;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The conversations of one namespace, over its ARK Memory API mount ({@code /ark/{ns}}): messages
 * appended to a conversation in order and stored exactly as sent (secrets redacted), read back in
 * pages, and deleted with their conversation. Obtained from {@link
 * CairnClient#conversations(String)}. ARK answers errors in its own envelope ({@code {"error":
 * {"code", "message"}}}), not problem+json: a {@link CairnException} then has the status, title
 * {@code HTTP <status>}, the envelope's message as detail and the envelope as {@code problem()}.
 * Thread-safe.
 */
public final class ConversationClient {

    private final Transport transport;
    private final String base;

    ConversationClient(Transport transport, String namespace) {
        this.transport = transport;
        this.base = "/ark/" + Query.encode(namespace);
    }

    /**
     * {@code POST messages}: appends the messages (any JSON each) to the conversation, under a
     * query id that groups them; the conversation exists from its first message. Sent once.
     */
    public void append(String conversationId, String queryId, List<JsonNode> messages) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("conversation_id", conversationId);
        body.put("query_id", queryId);
        body.put("messages", messages);
        transport.call("POST", base + "/messages", body, false, null);
    }

    /**
     * {@code GET messages?conversation_id=...&limit=...&cursor=...}: the conversation's messages
     * after {@code cursor} (a sequence; "" from the first), oldest first, at most {@code limit}
     * (1..1000); {@code nextCursor} reads on while {@code hasMore}.
     */
    public ArkAnswers.Messages messages(String conversationId, int limit, String cursor) {
        Query query = new Query();
        query.add("conversation_id", conversationId);
        query.add("limit", Integer.toString(limit));
        query.add("cursor", cursor);
        return transport.call(
                "GET",
                base + "/messages" + query,
                null,
                true,
                CairnClient.type(ArkAnswers.Messages.class));
    }

    /** {@code DELETE conversations/{id}}: the conversation and all its messages. */
    public void deleteConversation(String conversationId) {
        transport.call(
                "DELETE",
                base + "/conversations/" + Query.encode(conversationId),
                null,
                true,
                null);
    }
}
