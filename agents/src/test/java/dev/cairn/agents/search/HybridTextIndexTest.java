package dev.cairn.agents.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.TokenCounter;
import dev.cairn.retrieval.TestModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HybridTextIndexTest {

    static final List<TextEntry> ENTRIES =
            List.of(
                    new TextEntry("1", "Restart the PostgreSQL primary with patronictl"),
                    new TextEntry("2", "Flush the Redis cache when keys go stale"),
                    new TextEntry("3", "Book a table at the Italian restaurant"));

    @Test
    void loadsANamespaceOnceOnFirstSearch() {
        AtomicInteger loads = new AtomicInteger();
        try (HybridTextIndex index = HybridTextIndex.lexicalOnly()) {
            for (int i = 0; i < 3; i++) {
                index.search(
                        "ns",
                        "redis",
                        5,
                        () -> {
                            loads.incrementAndGet();
                            return ENTRIES;
                        });
            }
            assertThat(loads).hasValue(1);
        }
    }

    @Test
    void lexicalOnlyRanksByBm25AndKeepsRanks() {
        try (HybridTextIndex index = HybridTextIndex.lexicalOnly()) {
            List<TextHit> hits = index.search("ns", "redis cache", 5, () -> ENTRIES);
            assertThat(index.hybrid()).isFalse();
            assertThat(hits).extracting(TextHit::id).containsExactly("2");
            assertThat(hits.getFirst().lexical()).hasValue(1);
            assertThat(hits.getFirst().dense()).isEmpty();
        }
    }

    @Test
    void denseSignalFindsMeaningWithoutSharedWords() {
        try (HybridTextIndex index = HybridTextIndex.withEmbeddings(TestModel.get())) {
            // the first search starts embedding the namespace and waits for it at most the dense
            // deadline (2 s), then answers by words alone: on a busy machine a cold model's first
            // pass can take longer, so search until the vectors are in (bounded)
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            List<TextHit> hits = index.search("ns", "dinner reservation", 1, () -> ENTRIES);
            while (hits.isEmpty() && System.nanoTime() < deadline) {
                hits = index.search("ns", "dinner reservation", 1, () -> ENTRIES);
            }
            assertThat(index.hybrid()).isTrue();
            assertThat(hits).extracting(TextHit::id).containsExactly("3");
            assertThat(hits.getFirst().dense()).hasValue(1);
        }
    }

    @Test
    void aNamespaceWithABacklogAnswersByWordsAndAnotherNamespaceIsEmbeddedMeanwhile()
            throws InterruptedException {
        List<TextEntry> backlog = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            backlog.add(
                    new TextEntry(
                            "m" + i,
                            "message "
                                    + i
                                    + " about the deploy of service "
                                    + (i % 37)
                                    + " and the rollback plan for region "
                                    + (i % 11)));
        }
        try (InMemoryHybridTextIndex index = new InMemoryHybridTextIndex(TestModel.get())) {
            // the first search of a namespace with 1,500 messages does not embed them all first
            List<TextHit> first =
                    index.search("busy", "rollback plan message 1234", 3, () -> backlog);
            assertThat(first.getFirst().id()).isEqualTo("m1234");
            assertThat(index.outstandingVectors("busy")).isGreaterThan(0);

            // another namespace's entries are embedded while the backlog is still being worked off
            // (its first search may come back by words alone on a loaded machine: wait for them)
            index.search("quiet", "dinner reservation", 1, () -> ENTRIES);
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            while (index.outstandingVectors("quiet") > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(index.outstandingVectors("quiet")).isZero();
            assertThat(index.outstandingVectors("busy")).isGreaterThan(0);
            List<TextHit> other = index.search("quiet", "dinner reservation", 1, () -> ENTRIES);
            assertThat(other).extracting(TextHit::id).containsExactly("3");
            assertThat(other.getFirst().dense()).hasValue(1);
            assertThat(index.outstandingVectors("quiet")).isZero();
            assertThat(index.outstandingVectors("busy")).isGreaterThan(0);
        }
    }

    @Test
    void aFirstSearchAnswersByWordsWithinTheDenseDeadlineCountedFromItsStart() throws Exception {
        EmbeddingModel real = TestModel.get();
        CountDownLatch never = new CountDownLatch(1);
        // documents never finish embedding: the search can only answer by words
        EmbeddingModel stuck =
                new EmbeddingModel() {
                    public String id() {
                        return real.id();
                    }

                    public int dimensions() {
                        return real.dimensions();
                    }

                    public int maxTokens() {
                        return real.maxTokens();
                    }

                    public List<float[]> embedQueries(List<String> texts) {
                        return real.embedQueries(texts);
                    }

                    public List<float[]> embedDocuments(List<String> texts) {
                        try {
                            never.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        throw new IllegalStateException("closed");
                    }

                    public TokenCounter tokenCounter() {
                        return real.tokenCounter();
                    }

                    public void close() {
                        never.countDown();
                    }
                };
        Duration loading = Duration.ofMillis(1500);
        try (InMemoryHybridTextIndex index = new InMemoryHybridTextIndex(stuck)) {
            try {
                long start = System.nanoTime();
                List<TextHit> hits =
                        index.search(
                                "slow",
                                "restart the postgresql primary",
                                1,
                                () -> {
                                    try {
                                        Thread.sleep(loading); // a namespace slow to read
                                    } catch (InterruptedException e) {
                                        Thread.currentThread().interrupt();
                                    }
                                    return ENTRIES;
                                });
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertThat(hits).extracting(TextHit::id).containsExactly("1");
                assertThat(hits.getFirst().dense()).isEmpty();
                // counted after loading, the wait made it loading + 2 s = 3.5 s
                assertThat(took)
                        .isGreaterThanOrEqualTo(InMemoryHybridTextIndex.EMBEDDING_WAIT)
                        .isLessThan(InMemoryHybridTextIndex.EMBEDDING_WAIT.plusSeconds(1));
            } finally {
                stuck.close(); // lets the embedding worker go before the index closes
            }
        }
    }

    @Test
    void anEntryEditedWhileItsVectorIsComputedIsFoundByItsNewText() {
        try (InMemoryHybridTextIndex index = new InMemoryHybridTextIndex(TestModel.get())) {
            index.search("ns", "redis", 5, () -> ENTRIES);
            index.upsert(
                    "ns", List.of(new TextEntry("2", "Book flights to Lisbon for the offsite")));
            List<TextHit> hits = index.search("ns", "travel arrangements", 1, () -> ENTRIES);
            assertThat(index.outstandingVectors("ns")).isZero();
            assertThat(hits).extracting(TextHit::id).containsExactly("2");
            assertThat(hits.getFirst().dense()).hasValue(1);
        }
    }

    @Test
    void updatesApplyToLoadedNamespacesAndUnloadedOnesReadTheirSource() {
        try (HybridTextIndex index = HybridTextIndex.lexicalOnly()) {
            List<TextEntry> source = new ArrayList<>(ENTRIES);
            index.upsert("ns", List.of(new TextEntry("9", "zebra crossing")));
            assertThat(index.search("ns", "zebra", 5, () -> source)).isEmpty();

            index.upsert("ns", List.of(new TextEntry("9", "zebra crossing")));
            assertThat(index.search("ns", "zebra", 5, () -> source))
                    .extracting(TextHit::id)
                    .containsExactly("9");
            index.remove("ns", List.of("9"));
            assertThat(index.search("ns", "zebra", 5, () -> source)).isEmpty();
            index.invalidate("ns");
            source.add(new TextEntry("8", "zebra stripes"));
            assertThat(index.search("ns", "zebra", 5, () -> source))
                    .extracting(TextHit::id)
                    .containsExactly("8");
        }
    }

    @Test
    void anInvalidatedNamespaceReloadsOnItsNextSearch() {
        try (HybridTextIndex index = HybridTextIndex.lexicalOnly()) {
            index.search("ns", "redis", 5, () -> ENTRIES);
            index.invalidate("ns");
            List<TextHit> hits =
                    index.search(
                            "ns", "redis", 5, () -> List.of(new TextEntry("7", "fresh start")));
            assertThat(hits).isEmpty();
            assertThat(index.search("ns", "fresh", 5, () -> ENTRIES))
                    .extracting(TextHit::id)
                    .containsExactly("7");
        }
    }

    @Test
    void blankQueriesFindNothing() {
        try (HybridTextIndex index = HybridTextIndex.lexicalOnly()) {
            assertThat(index.search("ns", "  ", 5, () -> ENTRIES)).isEmpty();
        }
    }
}
