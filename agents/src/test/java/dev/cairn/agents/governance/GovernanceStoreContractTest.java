package dev.cairn.agents.governance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.agents.conversation.ConversationHistory;
import dev.cairn.agents.conversation.ConversationRepository;
import dev.cairn.agents.conversation.MessageFilter;
import dev.cairn.agents.conversation.MessagePage;
import dev.cairn.agents.conversation.NewMessage;
import dev.cairn.agents.conversation.StoredMessage;
import dev.cairn.agents.kv.KeyValueRepository;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.proposal.NewProposal;
import dev.cairn.memory.proposal.Proposal;
import dev.cairn.memory.proposal.ProposalFilter;
import dev.cairn.memory.proposal.ProposalRepository;
import dev.cairn.memory.proposal.ProposalStatus;
import dev.cairn.memory.proposal.ProposalType;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The conversation, key/value and proposal repositories against one store backend; a subclass per
 * backend supplies the store.
 */
abstract class GovernanceStoreContractTest {

    /** A clock tests can move. */
    static final class MovableClock extends Clock {
        final AtomicReference<Instant> now =
                new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        void advance(Duration d) {
            now.updateAndGet(t -> t.plus(d));
        }
    }

    protected Store store;
    final MovableClock clock = new MovableClock();
    ConversationRepository conversations;
    KeyValueRepository kv;
    ProposalRepository proposals;

    protected abstract Store openStore();

    @BeforeEach
    void open() {
        store = openStore();
        store.createNamespace("ns", "");
        store.createNamespace("other", "");
        conversations = ConversationRepository.sql(store.sql(), clock);
        kv = KeyValueRepository.sql(store.sql());
        proposals = ProposalRepository.sql(store.sql(), clock);
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    static NewMessage message(String role, String text) {
        return new NewMessage(
                "{\"role\":\"" + role + "\",\"content\":\"" + text + "\"}", role, text, false);
    }

    @Test
    void createsConversationsWithUuidIdsListedOldestFirst() {
        String a = conversations.createConversation("ns");
        clock.advance(Duration.ofSeconds(1));
        String b = conversations.createConversation("ns");

        assertThat(a).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
        assertThat(conversations.conversations("ns")).containsExactly(a, b);
        assertThat(conversations.conversations("other")).isEmpty();
    }

    @Test
    void numbersMessagesPerNamespaceInAppendOrderAndKeepsTheirJsonExactly() {
        String json = "{\"z\":1,  \"role\":\"user\",\"a\":[true,null]}";
        conversations.append(
                "ns", "c1", "q1", List.of(new NewMessage(json, "user", "", false)), Duration.ZERO);
        conversations.append(
                "ns",
                "c2",
                "q2",
                List.of(message("user", "hi"), message("assistant", "hello")),
                Duration.ZERO);
        conversations.append("other", "c1", "q1", List.of(message("user", "x")), Duration.ZERO);

        MessagePage page = conversations.messages("ns", MessageFilter.ALL, 0, 100);
        assertThat(page.items()).extracting(StoredMessage::sequence).containsExactly(1L, 2L, 3L);
        assertThat(page.items().getFirst().json()).isEqualTo(json);
        assertThat(page.total()).isEqualTo(3);
        assertThat(conversations.messages("other", MessageFilter.ALL, 0, 10).items())
                .extracting(StoredMessage::sequence)
                .containsExactly(1L);
        assertThat(conversations.conversations("ns")).containsExactlyInAnyOrder("c1", "c2");
    }

    @Test
    void pagesByOffsetAndFiltersByConversationAndQuery() {
        for (int i = 0; i < 5; i++) {
            conversations.append(
                    "ns", "c" + (i % 2), "q" + i, List.of(message("user", "m" + i)), Duration.ZERO);
        }

        MessagePage first = conversations.messages("ns", MessageFilter.conversation("c0"), 0, 2);
        MessagePage second =
                conversations.messages(
                        "ns", MessageFilter.conversation("c0"), first.nextOffset(), 2);

        assertThat(first.total()).isEqualTo(3);
        assertThat(first.hasMore()).isTrue();
        assertThat(second.items()).extracting(StoredMessage::content).containsExactly("m4");
        assertThat(second.hasMore()).isFalse();
        assertThat(conversations.messages("ns", new MessageFilter("c1", "q3"), 0, 10).items())
                .extracting(StoredMessage::content)
                .containsExactly("m3");
    }

    @Test
    void expiredMessagesAreNeitherListedNorSearchable() {
        conversations.append(
                "ns", "c", "q1", List.of(message("user", "short")), Duration.ofSeconds(10));
        conversations.append("ns", "c", "q2", List.of(message("user", "long")), Duration.ZERO);

        clock.advance(Duration.ofSeconds(11));

        assertThat(conversations.messages("ns", MessageFilter.ALL, 0, 10).items())
                .extracting(StoredMessage::content)
                .containsExactly("long");
        assertThat(conversations.searchable("ns"))
                .extracting(StoredMessage::content)
                .containsExactly("long");
    }

    @Test
    void readsMoreSequencesThanOneInListHolds() {
        int count = ConversationRepository.MAX_LIMIT * 2 + 5;
        List<NewMessage> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(message("user", "m" + i));
        }
        conversations.append("ns", "c", "q", batch, Duration.ZERO);
        List<Long> sequences = new ArrayList<>();
        conversations.searchable("ns").forEach(m -> sequences.add(m.sequence()));

        List<StoredMessage> read = conversations.searchableBySequence("ns", sequences);

        assertThat(read).hasSize(count);
        assertThat(read).extracting(StoredMessage::sequence).isSorted();
        assertThat(read.get(count - 1).content()).isEqualTo("m" + (count - 1));
    }

    @Test
    void readsScatteredSequencesExactlyAndNothingBetweenThem() {
        int count = 5_000;
        List<NewMessage> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(message("user", "m" + i));
        }
        conversations.append("ns", "c", "q", batch, Duration.ZERO);
        List<Long> all = new ArrayList<>();
        conversations.searchable("ns").forEach(m -> all.add(m.sequence()));
        // near neighbours, far jumps, a lone last one, asked twice and out of order
        List<Long> asked = new ArrayList<>();
        for (int i = 0; i < count; i += i < 100 ? 3 : 37) {
            asked.add(all.get(i));
        }
        asked.add(all.get(count - 1));
        asked.add(all.get(0));
        Collections.reverse(asked);

        List<StoredMessage> read = conversations.searchableBySequence("ns", asked);

        assertThat(read)
                .extracting(StoredMessage::sequence)
                .containsExactlyElementsOf(asked.stream().distinct().sorted().toList());
        assertThat(conversations.searchableBySequence("ns", List.of())).isEmpty();
        assertThat(conversations.searchableBySequence("ns", List.of(all.get(count - 1) + 10)))
                .isEmpty();
    }

    @Test
    void historyWithinTheBoundIsTheWholeConversation() {
        conversations.append(
                "ns",
                "c",
                "q",
                List.of(message("system", "be brief"), message("user", "a"), message("user", "b")),
                Duration.ZERO);
        conversations.append("ns", "other-c", "q", List.of(message("user", "x")), Duration.ZERO);

        ConversationHistory history = conversations.history("ns", "c", 3);

        assertThat(history.messages())
                .extracting(StoredMessage::content)
                .containsExactly("be brief", "a", "b");
        assertThat(history.total()).isEqualTo(3);
        assertThat(history.omitted()).isZero();
        assertThat(history.windowed()).isFalse();
        assertThat(conversations.history("ns", "unknown", 3).messages()).isEmpty();
    }

    @Test
    void historyPastTheBoundIsTheFirstSystemMessageAndTheNewestWindow() {
        List<NewMessage> batch = new ArrayList<>();
        batch.add(message("system", "you are the deploy agent"));
        for (int i = 1; i < 20; i++) {
            batch.add(message(i % 2 == 1 ? "user" : "assistant", "m" + i));
        }
        batch.add(message("system", "a later system message"));
        batch.add(message("user", "m21"));
        conversations.append("ns", "c", "q", batch, Duration.ZERO);

        ConversationHistory history = conversations.history("ns", "c", 5);

        assertThat(history.messages())
                .extracting(StoredMessage::content)
                .containsExactly(
                        "you are the deploy agent", "m18", "m19", "a later system message", "m21");
        assertThat(history.messages()).extracting(StoredMessage::sequence).isSorted();
        assertThat(history.total()).isEqualTo(22);
        assertThat(history.omitted()).isEqualTo(17);
        assertThat(history.windowed()).isTrue();
    }

    @Test
    void historyWindowNeverStartsWithAToolResultWhoseCallWasLeftOut() {
        conversations.append(
                "ns",
                "c",
                "q",
                List.of(
                        message("user", "deploy it"),
                        message("assistant", "calling the deploy tool"),
                        message("tool", "deployed"),
                        message("tool", "smoke test passed"),
                        message("assistant", "done"),
                        message("user", "thanks")),
                Duration.ZERO);

        // No system message: the window is the newest four, less the two leading tool results.
        ConversationHistory history = conversations.history("ns", "c", 4);

        assertThat(history.messages())
                .extracting(StoredMessage::content)
                .containsExactly("done", "thanks");
        assertThat(history.total()).isEqualTo(6);
        assertThat(history.omitted()).isEqualTo(4);
    }

    @Test
    void historyLeavesExpiredMessagesOutAndKeepsAFirstSystemMessageInsideTheWindowOnce() {
        conversations.append(
                "ns",
                "c",
                "q",
                List.of(message("system", "expiring rules")),
                Duration.ofSeconds(5));
        conversations.append(
                "ns",
                "c",
                "q",
                List.of(
                        message("user", "a"),
                        message("user", "b"),
                        message("system", "rules"),
                        message("user", "c")),
                Duration.ZERO);
        clock.advance(Duration.ofSeconds(10));

        ConversationHistory history = conversations.history("ns", "c", 3);

        assertThat(history.messages())
                .extracting(StoredMessage::content)
                .containsExactly("b", "rules", "c");
        assertThat(history.total()).isEqualTo(4);
        assertThat(history.omitted()).isEqualTo(1);
        assertThatThrownBy(() -> conversations.history("ns", "c", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxMessages: 1");
    }

    @Test
    void flaggedMessagesAreListedButNotSearchable() {
        conversations.append(
                "ns",
                "c",
                "q",
                List.of(new NewMessage("{}", "user", "odd", true), message("user", "fine")),
                Duration.ZERO);

        assertThat(conversations.messages("ns", MessageFilter.ALL, 0, 10).items()).hasSize(2);
        assertThat(conversations.searchable("ns"))
                .extracting(StoredMessage::content)
                .containsExactly("fine");
    }

    @Test
    void deletesConversationsAndQueryMessagesIdempotently() {
        conversations.append("ns", "c1", "q1", List.of(message("user", "a")), Duration.ZERO);
        conversations.append("ns", "c1", "q2", List.of(message("user", "b")), Duration.ZERO);
        conversations.append("ns", "c2", "q1", List.of(message("user", "c")), Duration.ZERO);

        assertThat(conversations.deleteQueryMessages("ns", "c1", "q1")).containsExactly(1L);
        assertThat(conversations.deleteQueryMessages("ns", "c1", "q1")).isEmpty();
        assertThat(conversations.deleteQueryMessages("ns", "", "q1")).containsExactly(3L);
        assertThat(conversations.deleteConversation("ns", "c1")).containsExactly(2L);
        assertThat(conversations.deleteConversation("ns", "c1")).isEmpty();
        assertThat(conversations.conversations("ns")).containsExactly("c2");
    }

    @Test
    void concurrentAppendsNeverShareASequenceNumber() throws Exception {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int id = t;
            threads.add(
                    Thread.ofVirtual()
                            .start(
                                    () -> {
                                        for (int i = 0; i < 10; i++) {
                                            conversations.append(
                                                    "ns",
                                                    "c" + id,
                                                    "q" + i,
                                                    List.of(
                                                            message("user", "x"),
                                                            message("user", "y")),
                                                    Duration.ZERO);
                                        }
                                    }));
        }
        for (Thread t : threads) {
            t.join();
        }

        assertThat(conversations.messages("ns", MessageFilter.ALL, 0, 1000).items())
                .extracting(StoredMessage::sequence)
                .containsExactlyElementsOf(
                        IntStream.rangeClosed(1, 80).mapToObj(i -> (long) i).toList());
    }

    @Test
    void appendingToAnUnknownNamespaceIsNotFound() {
        assertThatThrownBy(
                        () ->
                                conversations.append(
                                        "nope",
                                        "c",
                                        "q",
                                        List.of(message("user", "x")),
                                        Duration.ZERO))
                .isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void keyValueEntriesReplaceAndListByExactPrefixInKeyOrder() {
        kv.put("ns", "docs/b", "2", false);
        kv.put("ns", "docs/a", "1", false);
        kv.put("ns", "DOCS/c", "3", false);
        kv.put("ns", "docs%x", "4", false);
        kv.put("ns", "docs/a", "1b", false);
        kv.put("other", "docs/z", "9", false);

        assertThat(kv.get("ns", "docs/a"))
                .hasValueSatisfying(e -> assertThat(e.value()).isEqualTo("1b"));
        assertThat(kv.get("ns", "missing")).isEmpty();
        assertThat(kv.list("ns", "docs/", 100))
                .extracting(e -> e.key())
                .containsExactly("docs/a", "docs/b");
        assertThat(kv.list("ns", "", 100)).hasSize(4);
        assertThat(kv.delete("ns", "docs/a")).isTrue();
        assertThat(kv.delete("ns", "docs/a")).isFalse();
    }

    static NewProposal proposal(String title) {
        return new NewProposal(
                ProposalType.MEMORY,
                title,
                "Why.\nTags: Alpha, beta",
                "The content of " + title,
                "task-1",
                "agent-1",
                MemoryType.PREFERENCE);
    }

    @Test
    void proposalsStartPendingAndKeepTheirMemoryType() {
        Proposal p = proposals.create("ns", proposal("first"), false);

        assertThat(p.status()).isEqualTo(ProposalStatus.PENDING);
        assertThat(proposals.get("ns", p.id())).contains(p);
        assertThat(proposals.get("ns", p.id()).orElseThrow().memoryType())
                .isEqualTo(MemoryType.PREFERENCE);
        assertThat(proposals.get("other", p.id())).isEmpty();
    }

    @Test
    void reviewOnlyFromPendingAndApplyOnlyFromAccepted() {
        Proposal p = proposals.create("ns", proposal("p"), false);

        assertThatThrownBy(() -> proposals.markApplied("ns", p.id(), "m1", "ann"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("pending");
        Proposal accepted = proposals.review("ns", p.id(), ProposalStatus.ACCEPTED, "rev", "ok");
        assertThat(accepted.status()).isEqualTo(ProposalStatus.ACCEPTED);
        assertThat(accepted.reviewTime()).isPresent();
        assertThatThrownBy(() -> proposals.review("ns", p.id(), ProposalStatus.REJECTED, "rev", ""))
                .isInstanceOf(IllegalStateException.class);
        Proposal applied = proposals.markApplied("ns", p.id(), "m1", "ann");
        assertThat(applied.status()).isEqualTo(ProposalStatus.APPLIED);
        assertThat(applied.appliedMemoryId()).isEqualTo("m1");
        assertThat(applied.appliedBy()).isEqualTo("ann");
        assertThat(applied.applyTime()).isPresent();
        assertThat(proposals.archive("ns", p.id()).status()).isEqualTo(ProposalStatus.ARCHIVED);
        assertThatThrownBy(() -> proposals.review("nope", "x", ProposalStatus.ACCEPTED, "r", ""))
                .isInstanceOf(NoSuchElementException.class);
        assertThatThrownBy(() -> proposals.archive("ns", "missing"))
                .isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void listsProposalsNewestFirstWithFiltersAndCursor() {
        List<Proposal> made = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            clock.advance(Duration.ofMillis(5));
            made.add(
                    proposals.create(
                            "ns", proposal("title " + i + (i == 3 ? " needle" : "")), false));
        }
        proposals.create(
                "ns",
                new NewProposal(ProposalType.POLICY, "policy", "", "c", "", "", MemoryType.FACT),
                false);
        proposals.review("ns", made.get(0).id(), ProposalStatus.REJECTED, "r", "");

        Page<Proposal> first =
                proposals.list(
                        "ns",
                        new ProposalFilter(Set.of(ProposalType.MEMORY), Set.of(), "", "", ""),
                        new PageRequest(2, ""));
        Page<Proposal> second =
                proposals.list(
                        "ns",
                        new ProposalFilter(Set.of(ProposalType.MEMORY), Set.of(), "", "", ""),
                        new PageRequest(2, first.nextCursor()));

        assertThat(first.total()).isEqualTo(5);
        assertThat(first.items())
                .extracting(Proposal::title)
                .containsExactly("title 4", "title 3 needle");
        assertThat(second.items())
                .extracting(Proposal::title)
                .containsExactly("title 2", "title 1");
        assertThat(
                        proposals
                                .list(
                                        "ns",
                                        new ProposalFilter(
                                                Set.of(),
                                                Set.of(ProposalStatus.REJECTED),
                                                "",
                                                "",
                                                ""),
                                        PageRequest.first(10))
                                .items())
                .extracting(Proposal::title)
                .containsExactly("title 0");
        assertThat(
                        proposals
                                .list(
                                        "ns",
                                        new ProposalFilter(
                                                Set.of(), Set.of(), "task-1", "agent-1", "NEEDLE"),
                                        PageRequest.first(10))
                                .items())
                .extracting(Proposal::title)
                .containsExactly("title 3 needle");
    }

    @Test
    void deletingTheNamespaceDeletesItsConversationsEntriesAndProposals() {
        conversations.append("ns", "c", "q", List.of(message("user", "x")), Duration.ZERO);
        kv.put("ns", "k", "v", false);
        proposals.create("ns", proposal("p"), false);

        store.deleteNamespace("ns");
        store.createNamespace("ns", "");

        assertThat(conversations.conversations("ns")).isEmpty();
        assertThat(conversations.messages("ns", MessageFilter.ALL, 0, 10).total()).isZero();
        assertThat(kv.list("ns", "", 10)).isEmpty();
        assertThat(proposals.list("ns", ProposalFilter.ALL, PageRequest.first(10)).total())
                .isZero();
        conversations.append("ns", "c", "q", List.of(message("user", "x")), Duration.ZERO);
        assertThat(
                        conversations
                                .messages("ns", MessageFilter.ALL, 0, 10)
                                .items()
                                .getFirst()
                                .sequence())
                .isEqualTo(1L);
    }
}
