package dev.cairn.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.api.body.NamespaceBody;
import dev.cairn.api.view.ArkAnswers;
import dev.cairn.client.CairnClient;
import dev.cairn.client.ConversationClient;
import dev.cairn.testsupport.CairnServerTest;
import dev.cairn.testsupport.TestCairn;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The chat memory store against a real server's ARK conversations (embedded store here, the
 * PostgreSQL subclass on PostgreSQL): every kind of message comes back as it was given, a
 * conversation going on is appended to, one that lost its oldest messages is replaced, and a delete
 * empties it.
 */
class CairnChatMemoryStoreTest extends CairnServerTest {

    CairnClient client;
    ConversationClient conversations;
    CairnChatMemoryStore store;

    @BeforeAll
    void connect() {
        client = closedAfterAll(CairnClient.of(baseUri(), TestCairn.ADMIN));
        client.createNamespace(new NamespaceBody("chats", "chat memories", null));
        conversations = client.conversations("chats");
        store = new CairnChatMemoryStore(conversations);
    }

    static final List<ChatMessage> TURN =
            List.of(
                    SystemMessage.from("You are the on-call assistant."),
                    UserMessage.from("Is the payments queue drained?"),
                    AiMessage.from(
                            ToolExecutionRequest.builder()
                                    .id("call-7")
                                    .name("recall")
                                    .arguments("{\"query\":\"payments queue\"}")
                                    .build()),
                    ToolExecutionResultMessage.from("call-7", "recall", "Lag is zero since 09:00."),
                    AiMessage.from("Yes: the lag has been zero since 09:00."));

    long storedCount(String id) {
        return conversations.messages(id, 1, "").total();
    }

    @Test
    void everyKindOfMessageComesBackAsGiven() {
        store.updateMessages("kinds", TURN);

        assertThat(store.getMessages("kinds")).containsExactlyElementsOf(TURN);
        assertThat(store.getMessages("never-written")).isEmpty();
    }

    @Test
    void aConversationGoingOnIsAppendedToAndAShiftedWindowReplacesIt() {
        store.updateMessages("going-on", TURN.subList(0, 2));
        store.updateMessages("going-on", TURN);
        assertThat(storedCount("going-on")).as("appended, not written twice").isEqualTo(5);
        List<String> queryIds =
                conversations.messages("going-on", 10, "").items().stream()
                        .map(ArkAnswers.Message::queryId)
                        .toList();
        assertThat(queryIds)
                .as("two writes: the first two messages, then the three new ones")
                .containsExactly(
                        queryIds.get(0),
                        queryIds.get(0),
                        queryIds.get(2),
                        queryIds.get(2),
                        queryIds.get(2));
        assertThat(queryIds.get(2)).isNotEqualTo(queryIds.get(0));

        List<ChatMessage> window = TURN.subList(2, 5);
        store.updateMessages("going-on", window);
        assertThat(store.getMessages("going-on")).containsExactlyElementsOf(window);
        assertThat(storedCount("going-on")).isEqualTo(3);

        store.deleteMessages("going-on");
        assertThat(store.getMessages("going-on")).isEmpty();
    }

    @Test
    void aLongConversationIsReadAcrossPages() {
        List<ChatMessage> many = new ArrayList<>();
        IntStream.range(0, ConversationClient.MAX_LIMIT + 5)
                .forEach(i -> many.add(UserMessage.from("message number " + i)));

        store.updateMessages("long", many);

        assertThat(store.getMessages("long")).containsExactlyElementsOf(many);
    }
}
