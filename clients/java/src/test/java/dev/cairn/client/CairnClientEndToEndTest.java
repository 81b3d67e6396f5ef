package dev.cairn.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.cairn.api.body.ApplyBody;
import dev.cairn.api.body.DocumentBody;
import dev.cairn.api.body.FeedbackBody;
import dev.cairn.api.body.JudgeBody;
import dev.cairn.api.body.MemoryEditBody;
import dev.cairn.api.body.NamespaceBody;
import dev.cairn.api.body.NamespaceSettingsBody;
import dev.cairn.api.body.NewMemoryBody;
import dev.cairn.api.body.NewProposalBody;
import dev.cairn.api.body.RecallBody;
import dev.cairn.api.body.RetrieveBody;
import dev.cairn.api.body.ReviewBody;
import dev.cairn.api.view.ArkAnswers;
import dev.cairn.api.view.DocumentView;
import dev.cairn.api.view.FeedbackViews;
import dev.cairn.api.view.HealthAnswer;
import dev.cairn.api.view.JudgeViews;
import dev.cairn.api.view.ListAnswer;
import dev.cairn.api.view.MemoryView;
import dev.cairn.api.view.NamespaceView;
import dev.cairn.api.view.ProposalView;
import dev.cairn.api.view.RecallAnswer;
import dev.cairn.api.view.RetrieveAnswer;
import dev.cairn.memory.NewMemory;
import dev.cairn.testsupport.CairnServerTest;
import dev.cairn.testsupport.TestCairn;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every call of the client against a real Cairn server on a random port (embedded store here, the
 * PostgreSQL subclass on PostgreSQL; the real embedding model): the answers come back as the
 * server's records with the values the server gave, and its problem+json errors as {@link
 * CairnException}.
 */
class CairnClientEndToEndTest extends CairnServerTest {

    static final String ADMIN = TestCairn.ADMIN;

    static final String REINDEX =
            """
            ---
            title: Rebuild the product search index
            tags: [search, maintenance]
            ---
            # Rebuild the product search index

            Stop the indexer, snapshot the search-cluster, then run the full reindex job. The
            reindex takes about forty minutes for the product catalogue.
            """;

    static final String DRAIN =
            """
            # Drain the payments queue

            Pause the producers, wait until the consumer lag reaches zero, then restart the workers.
            """;

    CairnClient client;
    URI base;

    /** The store kind {@code /health} names. */
    String storeKind() {
        return "embedded";
    }

    @BeforeAll
    void connect() {
        base = baseUri();
        client = closedAfterAll(CairnClient.of(base, ADMIN));
    }

    @Test
    void healthSaysUpWithTheStoreAndTheModel() {
        HealthAnswer health = client.health();

        assertThat(health.up()).isTrue();
        assertThat(health.checks().get("store").kind()).isEqualTo(storeKind());
        assertThat(health.checks().get("store").reason()).isNull();
        assertThat(health.model().id()).isEqualTo("bge-small-en-v1.5");
    }

    @Test
    void namespacesAreCreatedListedReadUpdatedAndDeleted() {
        NamespaceView created =
                client.createNamespace(new NamespaceBody("client-ns", "for the client", null));
        assertThat(created.name()).isEqualTo("client-ns");
        assertThat(created.description()).isEqualTo("for the client");
        assertThat(created.recallScope()).as("the server's default").isEqualTo("user");

        ListAnswer<NamespaceView> listed = client.namespaces(Page.first(1000));
        assertThat(listed.items()).extracting(NamespaceView::name).contains("client-ns");
        assertThat(listed.total()).isEqualTo(listed.items().size());
        assertThat(client.getNamespace("client-ns")).isEqualTo(created);

        NamespaceView updated =
                client.updateNamespace("client-ns", new NamespaceSettingsBody("namespace"));
        assertThat(updated.recallScope()).isEqualTo("namespace");
        assertThat(client.getNamespace("client-ns").recallScope()).isEqualTo("namespace");

        CairnException again =
                catchThrowableOfType(
                        CairnException.class,
                        () -> client.createNamespace(new NamespaceBody("client-ns", "", null)));
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.detail()).contains("client-ns");

        client.deleteNamespace("client-ns");
        CairnException gone =
                catchThrowableOfType(CairnException.class, () -> client.getNamespace("client-ns"));
        assertThat(gone.status()).isEqualTo(404);
    }

    @Test
    void documentsAreIngestedListedRetrievedAndDeleted() {
        NamespaceClient ns = namespace("client-docs");
        DocumentView.Ingested first = ns.ingest(reindex());
        assertThat(first.id()).isEqualTo("search-reindex");
        assertThat(first.version()).isEqualTo(1);
        assertThat(first.chunks()).isPositive();
        assertThat(first.unchanged()).isFalse();

        DocumentView.Ingested again = ns.ingest(reindex(), true);
        assertThat(again)
                .isEqualTo(new DocumentView.Ingested("search-reindex", 1, first.chunks(), true));
        ns.ingest(
                new DocumentBody(
                        "payments-drain",
                        null,
                        DRAIN,
                        "markdown",
                        null,
                        null,
                        List.of("payments"),
                        Map.of("team", TextNode.valueOf("payments"), "pages", IntNode.valueOf(1))));

        ListAnswer<DocumentView> listed = ns.documents("", Page.FIRST);
        assertThat(listed.total()).isEqualTo(2);
        assertThat(listed.items())
                .extracting(DocumentView::id)
                .containsExactlyInAnyOrder("search-reindex", "payments-drain");
        ListAnswer<DocumentView> firstPage = ns.documents("", Page.first(1));
        assertThat(firstPage.items()).hasSize(1);
        assertThat(firstPage.nextCursor()).isNotNull();
        ListAnswer<DocumentView> secondPage =
                ns.documents("", Page.first(1).next(firstPage.nextCursor()));
        assertThat(secondPage.items()).hasSize(1).doesNotContainAnyElementsOf(firstPage.items());

        DocumentView.Detail detail = ns.document("search-reindex");
        assertThat(detail.document().title()).isEqualTo("Rebuild the product search index");
        assertThat(detail.document().tags()).containsExactly("search", "maintenance");
        assertThat(detail.document().authority()).isEqualTo("authoritative");
        assertThat(detail.document().source()).isEqualTo("https://wiki.example/reindex");
        assertThat(detail.chunks()).hasSize(first.chunks());
        assertThat(detail.chunks().getFirst().text()).contains("full reindex job");

        RetrieveAnswer answer = ns.retrieve("how long does the search reindex take", 2);
        assertThat(answer.traceId()).isNotBlank();
        assertThat(answer.partial()).isFalse();
        assertThat(answer.hits()).isNotEmpty();
        RetrieveAnswer.Hit best = answer.hits().getFirst();
        assertThat(best.documentId()).isEqualTo("search-reindex");
        assertThat(best.text()).contains("forty minutes");
        assertThat(best.ranks()).containsKeys("lexical", "dense");
        assertThat(best.ranks().get("lexical").intValue()).isEqualTo(1);
        assertThat(best.scores().get("dense").doubleValue()).isPositive();
        Map<String, Object> metadata = HitMetadata.of(answer.traceId(), best);
        assertThat(metadata)
                .containsEntry(HitMetadata.TRACE_ID, answer.traceId())
                .containsEntry(HitMetadata.CHUNK_ID, best.chunkId())
                .containsEntry(HitMetadata.DOCUMENT_ID, "search-reindex")
                .containsEntry(HitMetadata.TITLE, "Rebuild the product search index")
                .containsEntry(HitMetadata.AUTHORITY, "authoritative")
                .containsEntry(HitMetadata.SCORE, best.score())
                .containsEntry("cairn.rank.lexical", 1L)
                .containsEntry("cairn.score.dense", best.scores().get("dense").doubleValue());
        assertThat(metadata).doesNotContainValue(null);
        assertThat(answer.evidence().get("authoritative")).contains(best.chunkId());
        assertThat(answer.timings().totalMs()).isPositive();
        assertThat(answer.signals()).containsKeys("lexical", "dense", "graph");
        assertThat(answer.trace()).as("only when asked for").isNull();

        RetrieveAnswer filtered =
                ns.retrieve(
                        new RetrieveBody(
                                "restart the workers",
                                5,
                                null,
                                null,
                                null,
                                "rrf",
                                new RetrieveBody.Filters(List.of("payments"), null, null),
                                null,
                                true,
                                null));
        assertThat(filtered.hits())
                .extracting(RetrieveAnswer.Hit::documentId)
                .containsOnly("payments-drain");
        assertThat(filtered.trace()).as("asked for in the body").isNotEmpty();
        RetrieveBody byMetadata =
                RetrieveBody.of("restart the workers or reindex", 5)
                        .withFilters(
                                new RetrieveBody.Filters(
                                        null,
                                        null,
                                        null,
                                        Map.of(
                                                "team",
                                                List.of("payments"),
                                                "pages",
                                                List.of("1"))));
        assertThat(ns.retrieve(byMetadata).hits())
                .extracting(RetrieveAnswer.Hit::documentId)
                .containsOnly("payments-drain");

        ns.deleteDocument("payments-drain");
        assertThat(ns.documents("", Page.FIRST).total()).isEqualTo(1);
        CairnException missing =
                catchThrowableOfType(CairnException.class, () -> ns.document("payments-drain"));
        assertThat(missing.status()).isEqualTo(404);
    }

    @Test
    void memoriesAreRememberedRecalledListedEditedAndForgotten() {
        NamespaceClient ns = namespace("client-memory");
        MemoryView.Written written =
                ns.remember(
                        new NewMemoryBody(
                                "PREFERENCE",
                                "Ana prefers the dark theme in every editor",
                                null,
                                List.of("ui"),
                                null,
                                0.8,
                                null,
                                "ana",
                                null,
                                null,
                                null,
                                null,
                                null,
                                null));
        MemoryView memory = written.memory();
        assertThat(memory.id()).isNotBlank();
        assertThat(memory.type()).isEqualTo("PREFERENCE");
        assertThat(memory.status()).isEqualTo("ACTIVE");
        assertThat(memory.userId()).isEqualTo("ana");
        assertThat(memory.importance()).isEqualTo(0.8);
        assertThat(memory.confidence())
                .as("left out, the server's default")
                .isEqualTo(NewMemory.DEFAULT_CONFIDENCE);
        assertThat(written.deduplicatedInto()).isNull();
        assertThat(written.redacted().total()).isZero();
        ns.remember(
                NewMemoryBody.of(
                        "FACT", "Bruno is on call for the payments service this week", "bruno"));

        RecallAnswer recalled = ns.recall(RecallBody.of("which theme does Ana like", "ana"));
        assertThat(recalled.partial()).isFalse();
        assertThat(recalled.memories())
                .extracting(s -> s.memory().id())
                .containsExactly(memory.id());
        assertThat(recalled.memories().getFirst().score()).isPositive();
        assertThat(recalled.memories().getFirst().components().relevance()).isPositive();
        assertThat(recalled.context()).contains("dark theme");
        assertThat(recalled.tokens()).isPositive();
        assertThat(recalled.scope()).isEqualTo("user");

        CairnException noUser =
                catchThrowableOfType(
                        CairnException.class, () -> ns.recall(RecallBody.of("theme", "")));
        assertThat(noUser.status()).as("recallScope user needs a userId").isEqualTo(400);
        assertThat(noUser.detail()).contains("userId");

        ListAnswer<MemoryView> anas = ns.memories(MemoryFilter.ofUser("ana"), Page.FIRST);
        assertThat(anas.total()).isEqualTo(1);
        assertThat(anas.items().getFirst().id()).isEqualTo(memory.id());
        assertThat(ns.memories(MemoryFilter.ALL, Page.FIRST).total()).isEqualTo(2);
        assertThat(
                        ns.memories(
                                        new MemoryFilter(
                                                null, "FACT", null, null, null, null, null, null,
                                                null, null, null, false, false),
                                        Page.FIRST)
                                .items())
                .extracting(MemoryView::userId)
                .containsExactly("bruno");

        MemoryView.Written edited =
                ns.updateMemory(
                        memory.id(),
                        new MemoryEditBody(
                                null, null, null, List.of("ui", "editor"), 0.9, null, null, null));
        assertThat(edited.memory().tags()).containsExactlyInAnyOrder("ui", "editor");
        assertThat(edited.memory().confidence()).isEqualTo(0.9);
        assertThat(edited.memory().content()).as("left as it was").isEqualTo(memory.content());

        assertThat(ns.disableMemory(memory.id(), "checking").disabled()).isTrue();
        assertThat(ns.enableMemory(memory.id(), "").disabled()).isFalse();
        MemoryView invalid = ns.invalidateMemory(memory.id(), "Ana switched to light");
        assertThat(invalid.status()).isEqualTo("INVALIDATED");

        MemoryView.Detail detail = ns.memory(memory.id());
        assertThat(detail.memory().status()).isEqualTo("INVALIDATED");
        assertThat(detail.transitions())
                .extracting(MemoryView.Transition::to)
                .contains("INVALIDATED");
        assertThat(detail.transitions().getLast().reason()).isEqualTo("Ana switched to light");

        ns.deleteMemory(memory.id());
        CairnException deleted =
                catchThrowableOfType(CairnException.class, () -> ns.memory(memory.id()));
        assertThat(deleted.status()).isEqualTo(404);
    }

    @Test
    void proposalsAreFiledReviewedAppliedAndArchived() {
        NamespaceClient ns = namespace("client-proposals");
        ProposalView filed =
                ns.propose(
                        new NewProposalBody(
                                "memory",
                                "Deploy window",
                                "Tags: deploys, policy",
                                "Deploys happen on Tuesdays and Thursdays only",
                                "release",
                                "planner",
                                "DECISION"));
        assertThat(filed.status()).isEqualTo("pending");
        assertThat(filed.memoryType()).isEqualTo("DECISION");
        assertThat(filed.suggestedTags()).containsExactly("deploys", "policy");
        ProposalView other =
                ns.propose(
                        new NewProposalBody(
                                "policy",
                                "Quiet hours",
                                "",
                                "No pages at night",
                                null,
                                null,
                                null));

        assertThat(ns.proposals(ProposalFilter.ofStatus("pending"), Page.FIRST).items())
                .extracting(ProposalView::id)
                .containsExactlyInAnyOrder(filed.id(), other.id());
        assertThat(ns.proposal(filed.id()).title()).isEqualTo("Deploy window");

        ns.review(filed.id(), new ReviewBody("accepted", "lead", "agreed in the retro"));
        ProposalView accepted = ns.proposal(filed.id());
        assertThat(accepted.status()).isEqualTo("accepted");
        assertThat(accepted.reviewer()).isEqualTo("lead");
        assertThat(accepted.reviewNote()).isEqualTo("agreed in the retro");

        MemoryView.Applied applied = ns.apply(filed.id(), new ApplyBody("operator"));
        assertThat(applied.sourceProposalId()).isEqualTo(filed.id());
        assertThat(applied.memory().type()).isEqualTo("DECISION");
        assertThat(applied.memory().content())
                .isEqualTo("Deploys happen on Tuesdays and Thursdays only");
        assertThat(ns.apply(filed.id(), new ApplyBody("operator")).memory().id())
                .as("apply is idempotent")
                .isEqualTo(applied.memory().id());

        CairnException twice =
                catchThrowableOfType(
                        CairnException.class,
                        () -> ns.review(filed.id(), new ReviewBody("rejected", null, null)));
        assertThat(twice.status()).as("only from pending").isEqualTo(409);

        ns.archive(other.id());
        assertThat(ns.proposal(other.id()).status()).isEqualTo("archived");
    }

    @Test
    void feedbackIsRecordedAndListedAndAnswersAreJudged() {
        NamespaceClient ns = namespace("client-judge");
        ns.ingest(
                new DocumentBody(
                        "payments-drain",
                        null,
                        DRAIN,
                        "markdown",
                        null,
                        "authoritative",
                        null,
                        null));

        FeedbackViews.Recorded recorded =
                ns.feedback(
                        new FeedbackBody(
                                "how do I drain the payments queue",
                                List.of(new FeedbackBody.Item("payments-drain", null, null, 3)),
                                null));
        assertThat(recorded.recorded()).isEqualTo(1);
        FeedbackViews.JudgmentView judgment = recorded.items().getFirst();
        assertThat(judgment.documentId()).isEqualTo("payments-drain");
        assertThat(judgment.chunkId()).isNull();
        assertThat(judgment.grade()).isEqualTo(3);
        assertThat(judgment.source()).isEqualTo("operator");
        // The stored createdAt has millisecond precision, the POST's answer the clock's.
        assertThat(ns.judgments(Page.FIRST).items())
                .singleElement()
                .usingRecursiveComparison()
                .ignoringFields("createdAt")
                .isEqualTo(judgment);

        RetrieveAnswer retrieved = ns.retrieve("how do I drain the payments queue", 3);
        JudgeViews.Judged judged =
                ns.judge(
                        new JudgeBody(
                                "how do I drain the payments queue",
                                "Pause the producers, wait until the consumer lag reaches zero,"
                                        + " then restart the workers [1].",
                                retrieved.traceId(),
                                null,
                                null));
        assertThat(judged.judgementId()).isNotBlank();
        assertThat(judged.traceId()).isEqualTo(retrieved.traceId());
        assertThat(judged.judgement()).containsKeys("citationCoverage", "grounded", "claims");
        assertThat(((Number) judged.judgement().get("citationCoverage")).doubleValue())
                .isEqualTo(1.0);
        assertThat(judged.judgement().get("claims"))
                .asInstanceOf(InstanceOfAssertFactories.list(Map.class))
                .singleElement()
                .satisfies(
                        claim -> {
                            assertThat(claim.get("supported")).isEqualTo(true);
                            assertThat(claim.get("citations"))
                                    .isEqualTo(List.of(retrieved.hits().getFirst().chunkId()));
                        });

        JudgeViews.Judged unsupported =
                ns.judge(
                        new JudgeBody(
                                "how do I drain the payments queue",
                                "Delete the queue and recreate it from the backup [1].",
                                null,
                                List.of(new JudgeBody.EvidenceItem("e1", DRAIN, null, null)),
                                null));
        assertThat(unsupported.judgement().get("claims"))
                .asInstanceOf(InstanceOfAssertFactories.list(Map.class))
                .singleElement()
                .satisfies(claim -> assertThat(claim.get("supported")).isEqualTo(false));
        assertThat(unsupported.judgement().get("grounded")).isEqualTo(false);
    }

    @Test
    void conversationMessagesAreAppendedReadInPagesAndDeleted() {
        namespace("client-chats");
        ConversationClient chats = client.conversations("client-chats");
        ObjectMapper json = new ObjectMapper();
        ObjectNode question = json.createObjectNode().put("role", "user").put("content", "hi");
        ObjectNode answer =
                json.createObjectNode().put("role", "assistant").put("content", "hello, Dana");

        chats.append("chat 1", "q1", List.of(question, answer));
        chats.append("chat 1", "q2", List.of(question));

        ArkAnswers.Messages first = chats.messages("chat 1", 2, "");
        assertThat(first.items())
                .extracting(ArkAnswers.Message::message)
                .containsExactly(question, answer);
        assertThat(first.items()).extracting(ArkAnswers.Message::queryId).containsOnly("q1");
        assertThat(first.items())
                .extracting(ArkAnswers.Message::conversationId)
                .containsOnly("chat 1");
        assertThat(first.total()).isEqualTo(3);
        assertThat(first.hasMore()).isTrue();
        ArkAnswers.Messages rest = chats.messages("chat 1", 2, first.nextCursor());
        assertThat(rest.items()).extracting(ArkAnswers.Message::queryId).containsExactly("q2");
        assertThat(rest.hasMore()).isFalse();
        assertThat(rest.nextCursor()).isNull();

        ObjectNode followUp = json.createObjectNode().put("role", "user").put("content", "bye");
        chats.setMessages("chat 3", List.of(question, answer));
        chats.setMessages("chat 3", List.of(question, answer, followUp));
        List<ArkAnswers.Message> appended = chats.messages("chat 3", 10, "").items();
        assertThat(appended)
                .extracting(ArkAnswers.Message::message)
                .containsExactly(question, answer, followUp);
        assertThat(appended.get(2).queryId())
                .as("the new message appended under its own query id")
                .isNotEqualTo(appended.get(0).queryId());
        assertThat(appended.get(1).queryId()).isEqualTo(appended.get(0).queryId());
        chats.setMessages("chat 3", List.of(answer, followUp));
        assertThat(chats.allMessages("chat 3"))
                .as("a window without its oldest message replaces the conversation")
                .containsExactly(answer, followUp);
        chats.deleteConversation("chat 3");

        chats.append("chat 2", "q3", List.of(question));
        assertThat(chats.conversationIds()).containsExactlyInAnyOrder("chat 1", "chat 2");

        chats.deleteConversation("chat 1");
        assertThat(chats.messages("chat 1", 10, "").items()).isEmpty();
        assertThat(chats.conversationIds()).containsExactly("chat 2");

        CairnException missing =
                catchThrowableOfType(
                        CairnException.class, () -> chats.append("chat 1", "", List.of(question)));
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.title()).as("ARK's envelope, not problem+json").isEqualTo("HTTP 400");
        assertThat(missing.detail()).contains("query_id");
    }

    @Test
    void problemAnswersBecomeCairnExceptionsWithStatusTitleAndDetail() {
        CairnException unknown =
                catchThrowableOfType(
                        CairnException.class,
                        () -> client.namespace("no-such-ns").retrieve("anything", 3));
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.title()).isEqualTo("Not Found");
        assertThat(unknown.detail()).contains("no-such-ns");
        assertThat(unknown.problem().path("status").asInt()).isEqualTo(404);
        assertThat(unknown.getMessage()).startsWith("404 Not Found: ");

        NamespaceClient ns = namespace("client-problems");
        CairnException badType =
                catchThrowableOfType(
                        CairnException.class,
                        () -> ns.remember(NewMemoryBody.of("OPINION", "x", "u")));
        assertThat(badType.status()).isEqualTo(400);
        assertThat(badType.title()).isEqualTo("Bad Request");
        assertThat(badType.detail()).contains("OPINION");

        try (CairnClient stranger = CairnClient.of(base, "not-a-token-the-server-knows")) {
            assertThatThrownBy(() -> stranger.namespaces(Page.FIRST))
                    .isInstanceOfSatisfying(
                            CairnException.class, e -> assertThat(e.status()).isEqualTo(401));
        }
    }

    /** The runbook with an id, a source and an authority that win over its front matter. */
    private DocumentBody reindex() {
        return new DocumentBody(
                "search-reindex",
                null,
                REINDEX,
                "markdown",
                "https://wiki.example/reindex",
                "authoritative",
                null,
                null);
    }

    private NamespaceClient namespace(String name) {
        client.createNamespace(new NamespaceBody(name, "", null));
        return client.namespace(name);
    }
}
