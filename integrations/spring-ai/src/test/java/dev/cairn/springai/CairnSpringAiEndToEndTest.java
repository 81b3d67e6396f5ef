package dev.cairn.springai;

import static dev.cairn.testsupport.ChatCompletionsStub.lastMessage;
import static dev.cairn.testsupport.ChatCompletionsStub.messageText;
import static dev.cairn.testsupport.ChatCompletionsStub.roles;
import static dev.cairn.testsupport.ChatCompletionsStub.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.api.body.NamespaceBody;
import dev.cairn.api.body.RetrieveBody;
import dev.cairn.api.view.RetrieveAnswer;
import dev.cairn.client.CairnClient;
import dev.cairn.testsupport.CairnServerTest;
import dev.cairn.testsupport.ChatCompletionsStub;
import dev.cairn.testsupport.TestCairn;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.client.advisor.vectorstore.QuestionAnswerAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.document.Document;
import org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.rag.advisor.RetrievalAugmentationAdvisor;
import org.springframework.ai.rag.retrieval.search.VectorStoreDocumentRetriever;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.ai.vectorstore.VectorStore;
import org.springframework.ai.vectorstore.filter.FilterExpressionTextParser;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * The adapter in a real Spring context (Boot's auto-configuration with {@code cairn.*} properties,
 * next to Spring AI's chat-memory auto-configuration) against a real Cairn server on a random port
 * (embedded store here, the PostgreSQL subclass on PostgreSQL; the real embedding model): a {@code
 * ChatClient} whose model is Spring AI's {@code OpenAiChatModel} talking to a local stub (the one
 * fake) is grounded in Cairn's ranked chunks through {@code QuestionAnswerAdvisor} and {@code
 * RetrievalAugmentationAdvisor}, and remembers a conversation in Cairn through {@code
 * MessageChatMemoryAdvisor}.
 */
class CairnSpringAiEndToEndTest extends CairnServerTest {

    static final List<Document> RUNBOOKS =
            List.of(
                    new Document(
                            "reindex",
                            "Reindex the product search: freeze catalogue imports and snapshot the"
                                    + " search cluster first. A full reindex of the product"
                                    + " catalogue runs for about forty minutes; searches stay up.",
                            Map.of("team", "search")),
                    new Document(
                            "drain",
                            "Empty the payments queue: hold the payment producers, let the"
                                    + " consumers catch up to a lag of zero, and only then bring"
                                    + " the payment workers back.",
                            Map.of("team", "payments")),
                    new Document(
                            "refund",
                            "Refund a payment: find the charge in the payments console, refund"
                                    + " it, and note the ticket in the ledger.",
                            Map.of("team", "payments")),
                    new Document(
                            "rotate",
                            "Rotate the TLS certificates: issue the new certificate, deploy it"
                                    + " next to the old one, then switch the load balancer.",
                            Map.of("team", "platform")));

    CairnClient admin;

    @BeforeAll
    void connect() {
        admin = closedAfterAll(CairnClient.of(baseUri(), TestCairn.ADMIN));
        admin.createNamespace(new NamespaceBody("ops", "runbooks", null));
        // added through the context's own vector store, as an application would
        application().run(context -> context.getBean(VectorStore.class).add(RUNBOOKS));
    }

    /** A Boot application with Cairn's and Spring AI's chat-memory auto-configuration. */
    ApplicationContextRunner application() {
        return new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(
                                CairnAutoConfiguration.class, ChatMemoryAutoConfiguration.class))
                .withPropertyValues(
                        "cairn.base-url=" + baseUri(),
                        "cairn.token=" + TestCairn.ADMIN,
                        "cairn.namespace=ops",
                        "cairn.request-timeout=30s");
    }

    static ChatModel chatModel(ChatCompletionsStub stub) {
        return OpenAiChatModel.builder()
                .options(
                        OpenAiChatOptions.builder()
                                .baseUrl(stub.baseUrl())
                                .apiKey("no-key: a local stub")
                                .model("stub-model")
                                .maxRetries(0)
                                .build())
                .build();
    }

    /** The chunks' texts appear in the prompt in the order of the hits, and no other's does. */
    static void assertPromptHoldsInOrder(String prompt, List<RetrieveAnswer.Hit> hits) {
        int previous = -1;
        for (RetrieveAnswer.Hit hit : hits) {
            int at = prompt.indexOf(hit.text());
            assertThat(at)
                    .as("chunk %s in the prompt after the one before", hit.chunkId())
                    .isGreaterThan(previous);
            previous = at;
        }
    }

    @Test
    void theAutoConfigurationWiresTheClientStoreAndChatMemoryFromCairnProperties() {
        application()
                .run(
                        context -> {
                            assertThat(context).hasSingleBean(CairnClient.class);
                            assertThat(context.getBean(VectorStore.class))
                                    .isInstanceOf(CairnVectorStore.class);
                            assertThat(context.getBean(ChatMemoryRepository.class))
                                    .as("before Spring AI's in-memory default")
                                    .isInstanceOf(CairnChatMemoryRepository.class);
                            assertThat(context.getBean(CairnProperties.class).requestTimeout())
                                    .isEqualTo(Duration.ofSeconds(30));
                            assertThat(context.getBean(CairnProperties.class).connectTimeout())
                                    .isEqualTo(CairnClient.DEFAULT_CONNECT_TIMEOUT);
                        });
    }

    @Test
    void theAutoConfigurationBacksOffAndNamesAMissingNamespace() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CairnAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(CairnClient.class));

        application()
                .withBean(
                        "mine",
                        VectorStore.class,
                        () -> new CairnVectorStore(admin.namespace("elsewhere")))
                .run(
                        context -> {
                            assertThat(context).hasSingleBean(VectorStore.class);
                            assertThat(context).hasBean("mine");
                            assertThat(context).hasSingleBean(CairnChatMemoryRepository.class);
                        });

        application()
                .withPropertyValues("cairn.namespace=")
                .run(
                        context ->
                                assertThat(context)
                                        .hasFailed()
                                        .getFailure()
                                        .rootCause()
                                        .isInstanceOf(IllegalStateException.class)
                                        .hasMessageStartingWith("cairn.namespace is not set"));
    }

    @Test
    void questionAnswerAdvisorGivesTheModelCairnsChunksBestFirst() {
        String question = "How long does the product search reindex take?";
        List<RetrieveAnswer.Hit> ranked = admin.namespace("ops").retrieve(question, 2).hits();
        assertThat(ranked).hasSize(2);
        assertThat(ranked.getFirst().documentId()).isEqualTo("reindex");

        try (ChatCompletionsStub stub = new ChatCompletionsStub()) {
            stub.then(request -> text("About forty minutes."));
            application()
                    .run(
                            context -> {
                                ChatClient chat =
                                        ChatClient.builder(chatModel(stub))
                                                .defaultAdvisors(
                                                        QuestionAnswerAdvisor.builder(
                                                                        context.getBean(
                                                                                VectorStore.class))
                                                                .searchRequest(
                                                                        SearchRequest.builder()
                                                                                .topK(2)
                                                                                .build())
                                                                .build())
                                                .build();

                                assertThat(chat.prompt().user(question).call().content())
                                        .isEqualTo("About forty minutes.");
                            });

            String prompt = lastMessage(stub.requests().getFirst(), "user");
            assertThat(prompt).startsWith(question);
            assertPromptHoldsInOrder(prompt, ranked);
            assertThat(prompt).doesNotContain("switch the load balancer");
            assertThat(stub.unanswered()).isZero();
        }
    }

    @Test
    void retrievalAugmentationAdvisorPassesTheFilterAndKeepsCairnsOrder() {
        String question = "What do I do with the payments?";
        List<RetrieveAnswer.Hit> ranked =
                admin.namespace("ops")
                        .retrieve(
                                RetrieveBody.of(question, 3)
                                        .withFilters(
                                                new RetrieveBody.Filters(
                                                        null,
                                                        null,
                                                        null,
                                                        Map.of("team", List.of("payments")))))
                        .hits();
        assertThat(ranked)
                .extracting(RetrieveAnswer.Hit::documentId)
                .containsExactlyInAnyOrder("drain", "refund");

        try (ChatCompletionsStub stub = new ChatCompletionsStub()) {
            stub.then(request -> text("Drain the queue, then refund."));
            application()
                    .run(
                            context -> {
                                RetrievalAugmentationAdvisor rag =
                                        RetrievalAugmentationAdvisor.builder()
                                                .documentRetriever(
                                                        VectorStoreDocumentRetriever.builder()
                                                                .vectorStore(
                                                                        context.getBean(
                                                                                VectorStore.class))
                                                                .topK(3)
                                                                .filterExpression(
                                                                        new FilterExpressionTextParser()
                                                                                .parse(
                                                                                        "team == 'payments'"))
                                                                .build())
                                                .build();
                                ChatClient chat =
                                        ChatClient.builder(chatModel(stub))
                                                .defaultAdvisors(rag)
                                                .build();

                                assertThat(chat.prompt().user(question).call().content())
                                        .isEqualTo("Drain the queue, then refund.");
                            });

            String prompt = lastMessage(stub.requests().getFirst(), "user");
            assertPromptHoldsInOrder(prompt, ranked);
            assertThat(prompt)
                    .doesNotContain("switch the load balancer")
                    .doesNotContain("forty minutes");
        }
    }

    @Test
    void messageChatMemoryAdvisorRemembersTheConversationInCairnAcrossCalls() {
        try (ChatCompletionsStub stub = new ChatCompletionsStub()) {
            stub.then(request -> text("The drain waits for a consumer lag of zero."))
                    .then(request -> text("Then bring the payment workers back."));
            application()
                    .run(
                            context ->
                                    askInConversation(
                                            context,
                                            stub,
                                            "lee-1",
                                            "How do I empty the payments queue?"));
            // a second context, as after a restart: the turn comes back from Cairn
            application()
                    .run(
                            context ->
                                    assertThat(
                                                    askInConversation(
                                                            context,
                                                            stub,
                                                            "lee-1",
                                                            "And after that?"))
                                            .isEqualTo("Then bring the payment workers back."));

            JsonNode resumed = stub.requests().get(1);
            assertThat(roles(resumed)).containsExactly("user", "assistant", "user");
            assertThat(messageText(resumed, 1))
                    .isEqualTo("The drain waits for a consumer lag of zero.");
            assertThat(lastMessage(resumed, "user")).isEqualTo("And after that?");
        }
        assertThat(admin.conversations("ops").allMessages("lee-1"))
                .extracting(m -> m.path("role").asText() + ": " + m.path("content").asText())
                .containsExactly(
                        "user: How do I empty the payments queue?",
                        "assistant: The drain waits for a consumer lag of zero.",
                        "user: And after that?",
                        "assistant: Then bring the payment workers back.");
    }

    /** Asks through a ChatClient whose memory is the context's {@code ChatMemory}. */
    static String askInConversation(
            ApplicationContext context,
            ChatCompletionsStub stub,
            String conversationId,
            String question) {
        ChatClient chat =
                ChatClient.builder(chatModel(stub))
                        .defaultAdvisors(
                                MessageChatMemoryAdvisor.builder(context.getBean(ChatMemory.class))
                                        .build())
                        .build();
        return chat.prompt()
                .user(question)
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversationId))
                .call()
                .content();
    }
}
