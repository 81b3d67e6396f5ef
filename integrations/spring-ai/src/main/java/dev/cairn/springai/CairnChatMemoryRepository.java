package dev.cairn.springai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.ConversationClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.Message;

/**
 * A Spring AI {@link ChatMemoryRepository} over one namespace's ARK-style conversations: the
 * conversation id is Cairn's conversation id, each message is stored in order as {@link
 * MessageJson} writes it (OpenAI's chat-message shape), exactly as sent but for redacted secrets.
 * System, user, assistant (with its tool calls) and tool messages (with their responses) come back
 * equal to what was saved, metadata as JSON values; media is not stored.
 *
 * <p>Conversations rather than typed memories because a chat memory must give back the very
 * messages it was given, in order: typed memories are de-duplicated, merged, superseded and
 * expired. {@link #saveAll} is {@link ConversationClient#setMessages}: what is new is appended when
 * the stored messages are the start of the given ones (a conversation going on), otherwise (a
 * window that dropped its oldest messages) the conversation is rewritten. Read-then-write: one
 * writer per conversation, as Spring AI's chat memories are used. Thread-safe otherwise.
 */
public final class CairnChatMemoryRepository implements ChatMemoryRepository {

    private final ConversationClient conversations;

    public CairnChatMemoryRepository(ConversationClient conversations) {
        this.conversations = Objects.requireNonNull(conversations, "conversations");
    }

    /** {@code GET /ark/{ns}/conversations}: the conversations that hold messages. */
    @Override
    public List<String> findConversationIds() {
        return conversations.conversationIds();
    }

    /** {@code GET /ark/{ns}/messages}, every page: the messages, oldest first. */
    @Override
    public List<Message> findByConversationId(String conversationId) {
        List<Message> messages = new ArrayList<>();
        for (JsonNode stored : conversations.allMessages(conversationId)) {
            messages.add(MessageJson.read(stored));
        }
        return messages;
    }

    /** The conversation holds exactly {@code messages} afterwards. */
    @Override
    public void saveAll(String conversationId, List<Message> messages) {
        List<JsonNode> written = new ArrayList<>(messages.size());
        for (Message message : messages) {
            written.add(MessageJson.write(message));
        }
        conversations.setMessages(conversationId, written);
    }

    /** {@code DELETE /ark/{ns}/conversations/{id}}. */
    @Override
    public void deleteByConversationId(String conversationId) {
        conversations.deleteConversation(conversationId);
    }
}
