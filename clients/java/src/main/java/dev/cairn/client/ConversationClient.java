package dev.cairn.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.api.view.ArkAnswers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

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

    /** The most messages one {@link #messages} page may hold (ARK's largest {@code limit}). */
    public static final int MAX_LIMIT = 1000;

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

    /**
     * Every message of the conversation, oldest first, read in pages of {@value #MAX_LIMIT}; empty
     * when it has none.
     */
    public List<JsonNode> allMessages(String conversationId) {
        List<JsonNode> messages = new ArrayList<>();
        String cursor = "";
        while (true) {
            ArkAnswers.Messages page = messages(conversationId, MAX_LIMIT, cursor);
            for (ArkAnswers.Message item : page.items()) {
                messages.add(item.message());
            }
            if (!page.hasMore() || page.nextCursor() == null) {
                return messages;
            }
            cursor = page.nextCursor();
        }
    }

    /**
     * Makes the conversation hold exactly {@code messages}, as a chat memory saves its window: when
     * the stored messages are the start of them (a conversation going on), the rest is appended
     * under a fresh query id; otherwise (a window that dropped its oldest messages, an edit) the
     * conversation is deleted and written anew. Read-then-write: one writer per conversation.
     */
    public void setMessages(String conversationId, List<JsonNode> messages) {
        List<JsonNode> stored = allMessages(conversationId);
        int from = stored.size();
        if (stored.size() > messages.size() || !messages.subList(0, stored.size()).equals(stored)) {
            deleteConversation(conversationId);
            from = 0;
        }
        if (from < messages.size()) {
            append(
                    conversationId,
                    UUID.randomUUID().toString(),
                    List.copyOf(messages.subList(from, messages.size())));
        }
    }

    /**
     * {@code GET conversations}: the ids of the namespace's conversations that hold messages (ARK
     * answers them all at once, unpaged).
     */
    public List<String> conversationIds() {
        ArkAnswers.Conversations answer =
                transport.call(
                        "GET",
                        base + "/conversations",
                        null,
                        true,
                        CairnClient.type(ArkAnswers.Conversations.class));
        return answer.conversations() == null ? List.of() : List.copyOf(answer.conversations());
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
