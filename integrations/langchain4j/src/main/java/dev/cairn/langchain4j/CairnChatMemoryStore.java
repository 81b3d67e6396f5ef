package dev.cairn.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.client.ConversationClient;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageDeserializer;
import dev.langchain4j.data.message.ChatMessageSerializer;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@link ChatMemoryStore} over Cairn's ARK-style conversations: the memory id (its {@code
 * toString()}) is the conversation id, each message is stored as LangChain4j's own JSON of it, in
 * order, exactly as sent (secrets redacted). Conversations rather than typed memories because a
 * chat memory must give back the very messages it was given, every kind (system, user, AI with its
 * tool calls, tool results), in order: typed memories are de-duplicated, merged into similar ones,
 * superseded, expired and capped, which is right for facts an agent recalls and wrong for a
 * transcript. Stored here, the messages are also searchable with {@code transcripts/search} and
 * feed memory extraction.
 *
 * <p>{@link #updateMessages} is {@link ConversationClient#setMessages}: it appends what is new when
 * the stored messages are the start of the given ones (a conversation going on) and otherwise, as
 * when a window evicts its oldest messages, replaces the conversation. Read-then-write: one writer
 * per memory id, as LangChain4j's chat memories are used.
 */
public final class CairnChatMemoryStore implements ChatMemoryStore {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ConversationClient conversations;

    public CairnChatMemoryStore(ConversationClient conversations) {
        this.conversations = Objects.requireNonNull(conversations, "conversations");
    }

    @Override
    public List<ChatMessage> getMessages(Object memoryId) {
        List<ChatMessage> messages = new ArrayList<>();
        for (JsonNode stored : conversations.allMessages(id(memoryId))) {
            messages.add(ChatMessageDeserializer.messageFromJson(stored.toString()));
        }
        return messages;
    }

    @Override
    public void updateMessages(Object memoryId, List<ChatMessage> messages) {
        List<JsonNode> given = new ArrayList<>(messages.size());
        for (ChatMessage message : messages) {
            given.add(json(message));
        }
        conversations.setMessages(id(memoryId), given);
    }

    @Override
    public void deleteMessages(Object memoryId) {
        conversations.deleteConversation(id(memoryId));
    }

    private static JsonNode json(ChatMessage message) {
        try {
            return JSON.readTree(ChatMessageSerializer.messageToJson(message));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("LangChain4j wrote a message that is not JSON", e);
        }
    }

    private static String id(Object memoryId) {
        return Objects.requireNonNull(memoryId, "memoryId").toString();
    }
}
