package dev.cairn.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.api.body.NamespaceBody;
import dev.cairn.api.view.ArkAnswers;
import dev.cairn.client.CairnClient;
import dev.cairn.client.ConversationClient;
import dev.cairn.testsupport.CairnServerTest;
import dev.cairn.testsupport.TestCairn;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * The chat memory repository against a real server's ARK conversations (embedded store here, the
 * PostgreSQL subclass on PostgreSQL): every kind of message comes back equal, stored in OpenAI's
 * shape; conversations are listed and deleted one by one; Spring AI's own window memory keeps its
 * window in Cairn.
 */
class CairnChatMemoryRepositoryTest extends CairnServerTest {

    static final List<Message> TURN =
            List.of(
                    SystemMessage.builder().text("You are the on-call assistant.").build(),
                    UserMessage.builder()
                            .text("Is the payments queue drained, and the refunds?")
                            .metadata(Map.of("channel", "pager"))
                            .build(),
                    AssistantMessage.builder()
                            .content("")
                            .properties(Map.of("finishReason", "TOOL_CALLS", "index", 0))
                            .toolCalls(
                                    List.of(
                                            new AssistantMessage.ToolCall(
                                                    "call-7",
                                                    "function",
                                                    "queueLag",
                                                    "{\"queue\":\"payments\"}"),
                                            new AssistantMessage.ToolCall(
                                                    "call-8",
                                                    "function",
                                                    "queueLag",
                                                    "{\"queue\":\"refunds\"}")))
                            .build(),
                    ToolResponseMessage.builder()
                            .responses(
                                    List.of(
                                            new ToolResponseMessage.ToolResponse(
                                                    "call-7", "queueLag", "0 since 09:00"),
                                            new ToolResponseMessage.ToolResponse(
                                                    "call-8", "queueLag", "12 messages")))
                            .build(),
                    new AssistantMessage("Payments is drained since 09:00; refunds have 12 left."));

    CairnClient client;
    ConversationClient conversations;
    CairnChatMemoryRepository repository;

    @BeforeAll
    void connect() {
        client = closedAfterAll(CairnClient.of(baseUri(), TestCairn.ADMIN));
        client.createNamespace(new NamespaceBody("chats", "chat memories", null));
        conversations = client.conversations("chats");
        repository = new CairnChatMemoryRepository(conversations);
    }

    @Test
    void everyKindOfMessageComesBackEqualAndIsStoredInOpenAisShape() {
        repository.saveAll("kinds", TURN);

        assertThat(repository.findByConversationId("kinds")).containsExactlyElementsOf(TURN);
        assertThat(repository.findByConversationId("never-written")).isEmpty();

        List<JsonNode> stored = conversations.allMessages("kinds");
        assertThat(stored)
                .extracting(m -> m.path("role").asText())
                .containsExactly("system", "user", "assistant", "tool", "assistant");
        assertThat(stored.get(1).path("content").asText())
                .isEqualTo("Is the payments queue drained, and the refunds?");
        assertThat(stored.get(1).path("metadata").path("channel").asText()).isEqualTo("pager");
        assertThat(stored.get(2).at("/tool_calls/1/function/arguments").asText())
                .isEqualTo("{\"queue\":\"refunds\"}");
        assertThat(stored.get(3).at("/content/0/tool_call_id").asText()).isEqualTo("call-7");
        assertThat(stored.get(3).at("/content/1/text").asText()).isEqualTo("12 messages");
        assertThat(stored.get(4).has("metadata")).as("messageType is the role").isFalse();
    }

    @Test
    void twoConversationsAreListedAndDeletedOneByOne() {
        repository.saveAll("dana-monday", TURN.subList(0, 2));
        repository.saveAll("lee-monday", TURN.subList(1, 3));

        assertThat(repository.findConversationIds()).contains("dana-monday", "lee-monday");
        assertThat(repository.findByConversationId("lee-monday"))
                .containsExactlyElementsOf(TURN.subList(1, 3));

        repository.deleteByConversationId("dana-monday");

        assertThat(repository.findConversationIds())
                .contains("lee-monday")
                .doesNotContain("dana-monday");
        assertThat(repository.findByConversationId("dana-monday")).isEmpty();
        assertThat(repository.findByConversationId("lee-monday"))
                .containsExactlyElementsOf(TURN.subList(1, 3));
    }

    @Test
    void springAisWindowMemoryAppendsAndThenKeepsItsWindowInCairn() {
        MessageWindowChatMemory memory =
                MessageWindowChatMemory.builder()
                        .chatMemoryRepository(repository)
                        .maxMessages(3)
                        .build();

        memory.add("window", List.of(TURN.get(1), TURN.get(4)));
        assertThat(conversations.messages("window", 10, "").items())
                .extracting(ArkAnswers.Message::queryId)
                .as("one write of two messages")
                .hasSize(2)
                .containsOnly(conversations.messages("window", 1, "").items().get(0).queryId());
        memory.add("window", new UserMessage("And the refunds?"));
        memory.add("window", new AssistantMessage("12 left."));

        // Spring AI's window dropped the oldest messages (and an answer left at its start)
        List<Message> window = memory.get("window");
        assertThat(window)
                .endsWith(new UserMessage("And the refunds?"), new AssistantMessage("12 left."))
                .doesNotContain(TURN.get(1));
        assertThat(repository.findByConversationId("window"))
                .as("rewritten when the oldest fell out")
                .containsExactlyElementsOf(window);
        memory.clear("window");
        assertThat(repository.findByConversationId("window")).isEmpty();
    }

    @Test
    void aMessageAnotherClientWroteWithAnUnknownRoleIsNamed() {
        conversations.append(
                "foreign",
                "q1",
                List.of(
                        new ObjectMapper()
                                .createObjectNode()
                                .put("role", "developer")
                                .put("content", "x")));

        assertThatThrownBy(() -> repository.findByConversationId("foreign"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "a stored message with role 'developer' is not a Spring AI message (written"
                                + " by another client?)");
    }
}
