package dev.cairn.langchain4j;

import static dev.cairn.testsupport.ChatCompletionsStub.JSON;
import static dev.cairn.testsupport.ChatCompletionsStub.lastMessage;
import static dev.cairn.testsupport.ChatCompletionsStub.messageText;
import static dev.cairn.testsupport.ChatCompletionsStub.roles;
import static dev.cairn.testsupport.ChatCompletionsStub.text;
import static dev.cairn.testsupport.ChatCompletionsStub.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.api.body.DocumentBody;
import dev.cairn.api.body.NamespaceBody;
import dev.cairn.api.view.MemoryView;
import dev.cairn.api.view.RetrieveAnswer;
import dev.cairn.client.CairnClient;
import dev.cairn.client.CairnException;
import dev.cairn.client.MemoryFilter;
import dev.cairn.client.NamespaceClient;
import dev.cairn.client.Page;
import dev.cairn.testsupport.CairnServerTest;
import dev.cairn.testsupport.ChatCompletionsStub;
import dev.cairn.testsupport.TestCairn;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ChatMessageType;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.http.client.jdk.JdkHttpClient;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.Result;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The adapter with the real LangChain4j classes against a real Cairn server on a random port
 * (embedded store here, the PostgreSQL subclass on PostgreSQL; the real embedding model): an {@code
 * AiServices} assistant whose chat model is LangChain4j's OpenAI client talking to a local stub
 * retrieves Cairn's chunks, remembers through the tool, and recalls in a later session.
 */
class CairnLangChain4jEndToEndTest extends CairnServerTest {

    static final String REINDEX =
            """
            # Reindex the product search

            Freeze catalogue imports and take a snapshot of the search cluster first. A full
            reindex of the product catalogue runs for about forty minutes; searches stay up.
            """;

    static final String DRAIN =
            """
            # Empty the payments queue

            Hold the payment producers, let the consumers catch up to a lag of zero, and only
            then bring the payment workers back.
            """;

    static final String ROTATE =
            """
            # Rotate the TLS certificates

            Issue the new certificate, deploy it next to the old one, then switch the load balancer.
            """;

    /** The assistant an application declares; LangChain4j implements it. */
    interface Assistant {
        Result<String> chat(String message);
    }

    CairnClient client;
    NamespaceClient ops;

    @BeforeAll
    void connect() {
        client = closedAfterAll(CairnClient.of(baseUri(), TestCairn.ADMIN));
        client.createNamespace(new NamespaceBody("ops", "runbooks", null));
        ops = client.namespace("ops");
        ops.ingest(DocumentBody.markdown("reindex", REINDEX));
        ops.ingest(DocumentBody.markdown("drain", DRAIN));
        ops.ingest(DocumentBody.markdown("rotate", ROTATE));
    }

    static ChatModel chatModel(ChatCompletionsStub stub) {
        return OpenAiChatModel.builder()
                .httpClientBuilder(JdkHttpClient.builder())
                .baseUrl(stub.baseUrl())
                .apiKey("no-key: a local stub")
                .modelName("stub-model")
                .maxRetries(0)
                .build();
    }

    /** An assistant of one user in one session: its chat memory is the session's conversation. */
    Assistant assistant(ChatCompletionsStub stub, String userId, String session) {
        return AiServices.builder(Assistant.class)
                .chatModel(chatModel(stub))
                .contentRetriever(CairnContentRetriever.of(ops, 2))
                .tools(new CairnMemoryTools(ops, userId))
                .chatMemory(
                        MessageWindowChatMemory.builder()
                                .id(session)
                                .maxMessages(20)
                                .chatMemoryStore(
                                        new CairnChatMemoryStore(client.conversations("ops")))
                                .build())
                .build();
    }

    @Test
    void assistantRetrievesCairnsChunksRemembersAndRecallsInALaterSession() {
        // LangChain4j's default query is the user's whole message
        String message =
                "How long does the product search reindex take? And remember I want maintenance"
                        + " on weekends only.";
        RetrieveAnswer ranked = ops.retrieve(message, 2);
        assertThat(ranked.hits()).hasSize(2);
        assertThat(ranked.hits().getFirst().documentId()).isEqualTo("reindex");

        try (ChatCompletionsStub stub = new ChatCompletionsStub()) {
            stub.then(
                            request ->
                                    toolCall(
                                            "call-1",
                                            "remember",
                                            JSON.createObjectNode()
                                                    .put("type", "PREFERENCE")
                                                    .put(
                                                            "content",
                                                            "Dana wants maintenance windows on"
                                                                    + " weekends only")))
                    .then(request -> text("About forty minutes; noted your weekend preference."));

            Result<String> first = assistant(stub, "dana", "dana-monday").chat(message);

            assertThat(first.content())
                    .isEqualTo("About forty minutes; noted your weekend preference.");
            // the contents the assistant used are Cairn's hits, in Cairn's order
            List<Content> sources = first.sources();
            assertThat(sources)
                    .extracting(c -> c.textSegment().metadata().getString("cairn.chunkId"))
                    .containsExactlyElementsOf(
                            ranked.hits().stream().map(RetrieveAnswer.Hit::chunkId).toList());
            for (int i = 0; i < sources.size(); i++) {
                Metadata metadata = sources.get(i).textSegment().metadata();
                RetrieveAnswer.Hit hit = ranked.hits().get(i);
                assertThat(sources.get(i).textSegment().text()).isEqualTo(hit.text());
                assertThat(metadata.getString(CairnContentRetriever.DOCUMENT_ID))
                        .isEqualTo(hit.documentId());
                assertThat(metadata.getDouble(CairnContentRetriever.SCORE)).isEqualTo(hit.score());
                assertThat(sources.get(i).metadata().get(ContentMetadata.SCORE))
                        .isEqualTo(hit.score());
                hit.ranks()
                        .forEach(
                                (signal, rank) ->
                                        assertThat(metadata.getLong("cairn.rank." + signal))
                                                .as("rank of " + signal)
                                                .isEqualTo(rank.longValue()));
                hit.scores()
                        .forEach(
                                (signal, score) ->
                                        assertThat(metadata.getDouble("cairn.score." + signal))
                                                .as("score of " + signal)
                                                .isEqualTo(score.doubleValue()));
            }
            // one retrieve per question: one trace id on every content, not the direct call's
            assertThat(sources)
                    .extracting(c -> c.textSegment().metadata().getString("cairn.traceId"))
                    .containsOnly(
                            sources.getFirst().textSegment().metadata().getString("cairn.traceId"))
                    .doesNotContainNull()
                    .doesNotContain(ranked.traceId());
            assertThat(ranked.hits().getFirst().ranks()).containsKeys("lexical", "dense");

            // the model was given exactly those chunks, best first
            String prompt = lastMessage(stub.requests().getFirst(), "user");
            int best = prompt.indexOf(ranked.hits().get(0).text());
            int second = prompt.indexOf(ranked.hits().get(1).text());
            assertThat(best).isPositive();
            assertThat(second).isGreaterThan(best);
            assertThat(prompt).doesNotContain("Issue the new certificate");
            assertThat(stub.requests().getFirst().path("tools"))
                    .extracting(tool -> tool.path("function").path("name").asText())
                    .containsExactlyInAnyOrder("recall", "remember");

            // the tool wrote a typed memory of Dana's, and told the model its id
            List<MemoryView> danas =
                    ops.memories(MemoryFilter.ofUser("dana"), Page.first(10)).items();
            assertThat(danas).hasSize(1);
            assertThat(danas.getFirst().type()).isEqualTo("PREFERENCE");
            assertThat(danas.getFirst().content())
                    .isEqualTo("Dana wants maintenance windows on weekends only");
            assertThat(first.toolExecutions()).hasSize(1);
            assertThat(first.toolExecutions().getFirst().result())
                    .isEqualTo("Remembered as " + danas.getFirst().id() + ".");
            assertThat(lastMessage(stub.requests().get(1), "tool"))
                    .isEqualTo("Remembered as " + danas.getFirst().id() + ".");
            assertThat(stub.unanswered()).isZero();
        }

        // the session's conversation holds the turn: question, tool call, its result, answer
        List<ChatMessage> monday =
                new CairnChatMemoryStore(client.conversations("ops")).getMessages("dana-monday");
        assertThat(monday)
                .extracting(ChatMessage::type)
                .containsExactly(
                        ChatMessageType.USER,
                        ChatMessageType.AI,
                        ChatMessageType.TOOL_EXECUTION_RESULT,
                        ChatMessageType.AI);
        // LangChain4j keeps the user's message as augmented with the retrieved chunks
        assertThat(((UserMessage) monday.getFirst()).singleText())
                .startsWith(message)
                .contains(ranked.hits().getFirst().text());
        assertThat(((AiMessage) monday.get(1)).toolExecutionRequests().getFirst().name())
                .isEqualTo("remember");
        assertThat(((AiMessage) monday.get(3)).text())
                .isEqualTo("About forty minutes; noted your weekend preference.");

        // a later session: a new assistant and conversation; only Cairn's memories remember
        try (ChatCompletionsStub stub = new ChatCompletionsStub()) {
            stub.then(
                            request ->
                                    toolCall(
                                            "call-2",
                                            "recall",
                                            JSON.createObjectNode()
                                                    .put(
                                                            "query",
                                                            "When does Dana want maintenance"
                                                                    + " windows?")))
                    .then(request -> text("From memory: " + lastMessage(request, "tool")));

            Result<String> later =
                    assistant(stub, "dana", "dana-friday").chat("When should I plan the upgrade?");

            JsonNode asked = stub.requests().getFirst();
            assertThat(asked.toString()).doesNotContain("weekends");
            assertThat(later.toolExecutions()).hasSize(1);
            assertThat(later.toolExecutions().getFirst().request().name()).isEqualTo("recall");
            assertThat(later.content())
                    .startsWith("From memory: ")
                    .contains("Dana wants maintenance windows on weekends only");
            assertThat(stub.unanswered()).isZero();
        }
    }

    @Test
    void aSessionGoesOnWithItsConversationFromCairn() {
        try (ChatCompletionsStub stub = new ChatCompletionsStub()) {
            stub.then(request -> text("The drain waits for a consumer lag of zero."))
                    .then(request -> text("Then bring the payment workers back."));

            assistant(stub, "lee", "lee-session").chat("How do I empty the payments queue?");
            // a new assistant, as after a restart: the session's messages come from Cairn
            assistant(stub, "lee", "lee-session").chat("And after that?");

            JsonNode resumed = stub.requests().get(1);
            assertThat(roles(resumed)).containsExactly("user", "assistant", "user");
            assertThat(messageText(resumed, 1))
                    .isEqualTo("The drain waits for a consumer lag of zero.");
            assertThat(lastMessage(resumed, "user")).startsWith("And after that?");
        }
    }

    @Test
    void recallToolReadsOnlyItsUsersMemories() {
        CairnMemoryTools lee = new CairnMemoryTools(ops, "lee");
        CairnMemoryTools kim = new CairnMemoryTools(ops, "kim");

        assertThat(lee.remember("FACT", "Lee is on call for the payments queue this week"))
                .startsWith("Remembered as ");
        assertThat(lee.remember("FACT", "Lee is on call for the payments queue this week"))
                .as("the same memory again is de-duplicated")
                .startsWith("Already remembered as ");

        assertThat(lee.recall("who is on call for the payments queue?"))
                .contains("Lee is on call for the payments queue this week");
        assertThat(kim.recall("who is on call for the payments queue?"))
                .isEqualTo("Nothing remembered about that.");
    }

    @Test
    void rememberToolRefusesAnUnknownTypeWithTheServersDetail() {
        assertThatThrownBy(() -> new CairnMemoryTools(ops, "lee").remember("MOOD", "grumpy"))
                .isInstanceOfSatisfying(
                        CairnException.class,
                        e -> {
                            assertThat(e.status()).isEqualTo(400);
                            assertThat(e.detail()).contains("MOOD");
                        });
    }

    @Test
    void retrieverPassesTheRequestItIsGivenAndAnswersNothingForNoHits() {
        CairnContentRetriever filtered =
                new CairnContentRetriever(
                        ops,
                        query ->
                                new dev.cairn.api.body.RetrieveBody(
                                        query,
                                        3,
                                        null,
                                        null,
                                        null,
                                        null,
                                        new dev.cairn.api.body.RetrieveBody.Filters(
                                                List.of("no-such-tag"), null, null),
                                        null,
                                        null,
                                        null));

        assertThat(filtered.retrieve(Query.from("reindex the product search"))).isEmpty();
        assertThat(
                        CairnContentRetriever.of(ops, 1)
                                .retrieve(Query.from("drain the payments queue")))
                .singleElement()
                .satisfies(
                        c ->
                                assertThat(c.textSegment().metadata().getString("cairn.documentId"))
                                        .isEqualTo("drain"));
        assertThatThrownBy(() -> CairnContentRetriever.of(ops, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("topK");
    }
}
