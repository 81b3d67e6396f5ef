package dev.cairn.memory.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.memory.Memory;
import dev.cairn.memory.MemoryLifecycle;
import dev.cairn.memory.MemorySource;
import dev.cairn.memory.MemoryStatus;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;
import dev.cairn.memory.StatusTransition;
import dev.cairn.memory.Transitioned;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.ScatteredIds;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The {@link MemoryRepository} contract; one subclass per store backend. */
abstract class MemoryRepositoryContractTest {

    static final int DIMS = 8;
    static final Instant T0 = Instant.parse("2026-01-10T10:00:00Z");
    static final long SEED = 20261129L;

    protected Store store;
    protected MemoryRepository repo;
    private final MemoryLifecycle lifecycle = MemoryLifecycle.defaults();

    protected abstract Store open(StoreConfig config);

    static StoreConfig config() {
        return StoreConfig.defaults().withDimensions(DIMS).withMaxPoolSize(4);
    }

    @BeforeEach
    void openStore() {
        store = open(config());
        store.createNamespace("alpha", "");
        store.createNamespace("beta", "");
        repo = MemoryRepository.over(store);
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    private Memory memory(String id, String ns, MemoryType type, String content) {
        return lifecycle.create(id, NewMemory.of(Scope.of(ns), type, content), "m1", T0);
    }

    private static float[] vec(float first) {
        float[] v = new float[DIMS];
        v[0] = first;
        v[1] = 1 - first;
        return v;
    }

    @Test
    void roundTripsEveryField() {
        NewMemory draft =
                NewMemory.of(
                                new Scope("alpha", "u1", "a1", "s1", "t1", "p1"),
                                MemoryType.PREFERENCE,
                                "Prefers dark mode")
                        .withTags(List.of("UI", "Theme"))
                        .withConfidence(0.7)
                        .withImportance(0.9)
                        .withConflictKey("ui.theme")
                        .withSource(MemorySource.of(MemorySource.Kind.EXTRACTION, "msg-1"))
                        .withTtlDays(30);
        Memory m = lifecycle.create("mem_1", draft, "m1", T0).recalled(T0.plusSeconds(5));
        repo.write("alpha", List.of(new MemoryRow(m, vec(0.5f))), List.of());

        assertThat(repo.find("alpha", "mem_1")).contains(m);
        assertThat(repo.embedding("alpha", "mem_1")).containsExactly(vec(0.5f));
    }

    @Test
    void memoryOfAnotherNamespaceIsAbsent() {
        repo.write(
                "alpha",
                List.of(MemoryRow.keepEmbedding(memory("mem_1", "alpha", MemoryType.FACT, "x"))),
                List.of());

        assertThat(repo.find("beta", "mem_1")).isEmpty();
        assertThat(repo.list("beta", MemoryFilter.all(), PageRequest.first(10)).items()).isEmpty();
        assertThat(repo.transitions("beta", "mem_1")).isEmpty();
    }

    @Test
    void writeIntoUnknownNamespaceFailsWithNoSuchElement() {
        Memory m = memory("mem_1", "gamma", MemoryType.FACT, "x");
        assertThatThrownBy(
                        () -> repo.write("gamma", List.of(MemoryRow.keepEmbedding(m)), List.of()))
                .isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void rejectsRowOfAnotherNamespace() {
        Memory m = memory("mem_1", "beta", MemoryType.FACT, "x");
        assertThatThrownBy(
                        () -> repo.write("alpha", List.of(MemoryRow.keepEmbedding(m)), List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("beta");
    }

    @Test
    void keepsStoredEmbeddingWhenRowCarriesNone() {
        Memory m = memory("mem_1", "alpha", MemoryType.FACT, "x");
        repo.write("alpha", List.of(new MemoryRow(m, vec(1f))), List.of());
        repo.write("alpha", List.of(MemoryRow.keepEmbedding(m.withDisabled(true, T0))), List.of());

        assertThat(repo.embedding("alpha", "mem_1")).containsExactly(vec(1f));
        assertThat(repo.find("alpha", "mem_1").orElseThrow().disabled()).isTrue();
    }

    @Test
    void appendsTransitionsWithoutOverwritingHistory() {
        Memory m = memory("mem_1", "alpha", MemoryType.FACT, "x");
        repo.write("alpha", List.of(MemoryRow.keepEmbedding(m)), List.of());
        Transitioned stale = lifecycle.expireIfDue(m, T0.plus(800, ChronoUnit.DAYS)).orElseThrow();
        repo.write("alpha", List.of(MemoryRow.keepEmbedding(stale.memory())), stale.transitions());
        Transitioned invalid =
                lifecycle.invalidate(stale.memory(), T0.plus(801, ChronoUnit.DAYS), "ops", "wrong");
        repo.write(
                "alpha", List.of(MemoryRow.keepEmbedding(invalid.memory())), invalid.transitions());

        assertThat(repo.transitions("alpha", "mem_1"))
                .extracting(StatusTransition::from, StatusTransition::to, StatusTransition::actor)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                MemoryStatus.ACTIVE, MemoryStatus.STALE, "system"),
                        org.assertj.core.groups.Tuple.tuple(
                                MemoryStatus.STALE, MemoryStatus.INVALIDATED, "ops"));
    }

    @Test
    void failedWriteLeavesNothingBehind() {
        Memory a = memory("mem_a", "alpha", MemoryType.FACT, "a");
        Memory tooLong = memory("mem_b", "alpha", MemoryType.FACT, "b");
        float[] wrongDims = new float[DIMS + 3];
        wrongDims[0] = 1;
        assertThatThrownBy(
                        () ->
                                repo.write(
                                        "alpha",
                                        List.of(
                                                MemoryRow.keepEmbedding(a),
                                                new MemoryRow(tooLong, wrongDims)),
                                        List.of()))
                .isInstanceOf(RuntimeException.class);

        assertThat(repo.find("alpha", "mem_a")).isEmpty();
        assertThat(repo.count("alpha")).isZero();
    }

    @Test
    void listsByIdWithCursorPagingAndTotal() {
        List<MemoryRow> rows = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            rows.add(
                    MemoryRow.keepEmbedding(
                            memory("mem_" + i, "alpha", MemoryType.FACT, "fact " + i)));
        }
        repo.write("alpha", rows, List.of());

        Page<Memory> first = repo.list("alpha", MemoryFilter.all(), PageRequest.first(3));
        Page<Memory> second =
                repo.list("alpha", MemoryFilter.all(), new PageRequest(3, first.nextCursor()));
        Page<Memory> third =
                repo.list("alpha", MemoryFilter.all(), new PageRequest(3, second.nextCursor()));

        assertThat(first.items()).extracting(Memory::id).containsExactly("mem_0", "mem_1", "mem_2");
        assertThat(second.items())
                .extracting(Memory::id)
                .containsExactly("mem_3", "mem_4", "mem_5");
        assertThat(third.items()).extracting(Memory::id).containsExactly("mem_6");
        assertThat(third.hasMore()).isFalse();
        assertThat(first.total()).isEqualTo(7);
    }

    @Test
    void filtersByEveryListField() {
        Memory a =
                lifecycle.create(
                        "mem_a",
                        NewMemory.of(
                                        new Scope("alpha", "u1", "a1", "s1", "t1", "p1"),
                                        MemoryType.PREFERENCE,
                                        "Likes 100% Green_Tea")
                                .withTags(List.of("drinks", "morning"))
                                .withSource(MemorySource.of(MemorySource.Kind.EXTRACTION, "")),
                        "m1",
                        T0);
        Memory b =
                lifecycle.create(
                        "mem_b",
                        NewMemory.of(
                                        new Scope("alpha", "u2", "a2", "s2", "t2", "p2"),
                                        MemoryType.FACT,
                                        "Lives in Oslo")
                                .withTags(List.of("drinks")),
                        "m1",
                        T0);
        Memory disabled =
                memory("mem_c", "alpha", MemoryType.FACT, "hidden").withDisabled(true, T0);
        Memory deleted = memory("mem_d", "alpha", MemoryType.FACT, "gone").withDeleted(true, T0);
        repo.write(
                "alpha",
                List.of(a, b, disabled, deleted).stream().map(MemoryRow::keepEmbedding).toList(),
                List.of());

        assertThat(ids(MemoryFilter.all())).containsExactly("mem_a", "mem_b");
        assertThat(ids(MemoryFilter.all().withText("100% green_tea"))).containsExactly("mem_a");
        assertThat(ids(MemoryFilter.all().withText("0%"))).containsExactly("mem_a");
        assertThat(ids(MemoryFilter.all().withTypes(Set.of(MemoryType.FACT))))
                .containsExactly("mem_b");
        assertThat(ids(MemoryFilter.all().withStatuses(Set.of(MemoryStatus.STALE)))).isEmpty();
        assertThat(ids(MemoryFilter.all().withTags(List.of("drinks"))))
                .containsExactly("mem_a", "mem_b");
        assertThat(ids(MemoryFilter.all().withTags(List.of("drinks", "morning"))))
                .containsExactly("mem_a");
        assertThat(ids(MemoryFilter.all().withTags(List.of("drink")))).isEmpty();
        assertThat(ids(MemoryFilter.all().withUser("u2"))).containsExactly("mem_b");
        assertThat(ids(MemoryFilter.all().withAgent("a1"))).containsExactly("mem_a");
        assertThat(ids(MemoryFilter.all().withSession("s2"))).containsExactly("mem_b");
        assertThat(ids(MemoryFilter.all().withTask("t1", ""))).containsExactly("mem_a");
        assertThat(ids(MemoryFilter.all().withTask("", "p2"))).containsExactly("mem_b");
        assertThat(ids(MemoryFilter.all().withSources(Set.of(MemorySource.Kind.EXTRACTION))))
                .containsExactly("mem_a");
        assertThat(ids(MemoryFilter.all().withIds(List.of("mem_b", "mem_c", "nope"))))
                .containsExactly("mem_b");
        assertThat(ids(MemoryFilter.all().withIncludeDisabled(true)))
                .containsExactly("mem_a", "mem_b", "mem_c");
        assertThat(ids(MemoryFilter.all().withIncludeDeleted(true)))
                .containsExactly("mem_a", "mem_b", "mem_d");
    }

    private List<String> ids(MemoryFilter filter) {
        return repo.list("alpha", filter, PageRequest.first(100)).items().stream()
                .map(Memory::id)
                .toList();
    }

    /** {@code ids} of users u1 and u2 in turn, in {@code ns}, each saying its namespace. */
    private void writeUsersMemories(String ns, List<String> ids) {
        List<MemoryRow> rows = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            Scope scope = new Scope(ns, "u" + (i % 2 + 1), "", "", "", "");
            rows.add(
                    MemoryRow.keepEmbedding(
                            lifecycle.create(
                                    ids.get(i),
                                    NewMemory.of(scope, MemoryType.FACT, "kept in " + ns),
                                    "m1",
                                    T0)));
        }
        repo.write(ns, rows, List.of());
    }

    private static List<String> numbered(int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(String.format("mem_%03d", i));
        }
        return ids;
    }

    @Test
    void findAllAnswersTheListedMemoriesOfItsNamespaceOnlyInIdOrder() {
        List<String> alpha = numbered(60);
        writeUsersMemories("alpha", alpha);
        List<String> beta = new ArrayList<>(alpha);
        beta.add("mem_beta_only");
        writeUsersMemories("beta", beta);
        List<String> wanted = new ArrayList<>();
        for (int i = alpha.size() - 1; i >= 0; i -= 4) {
            wanted.add(alpha.get(i));
        }
        List<String> listed = new ArrayList<>(wanted);
        listed.add("mem_beta_only");

        List<Memory> found = repo.findAll("alpha", ScatteredIds.among(listed, SEED));

        assertThat(found)
                .as("seed %d", SEED)
                .extracting(Memory::id)
                .containsExactlyElementsOf(wanted.stream().sorted().toList());
        assertThat(found).extracting(Memory::content).containsOnly("kept in alpha");
        assertThat(repo.findAll("alpha", List.of())).isEmpty();
    }

    @Test
    void listsByManyIdsWithAnotherFilterCountingAndPagingOnlyTheirMatches() {
        List<String> alpha = numbered(40);
        writeUsersMemories("alpha", alpha);
        writeUsersMemories("beta", numbered(41).reversed());
        // the filter's most ids: the memories scattered among absent ids, seeded
        List<String> listed = new ArrayList<>();
        for (int i = 0; listed.size() < MemoryFilter.MAX_IDS - alpha.size() - 1; i++) {
            listed.add("absent_" + i);
        }
        listed.add("mem_040"); // only in beta
        java.util.Random random = new java.util.Random(SEED);
        for (String id : alpha) {
            listed.add(random.nextInt(listed.size() + 1), id);
        }
        MemoryFilter filter = MemoryFilter.all().withIds(listed).withUser("u1");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < alpha.size(); i += 2) {
            expected.add(alpha.get(i)); // u1's
        }

        List<String> paged = new ArrayList<>();
        PageRequest page = PageRequest.first(7);
        long total;
        while (true) {
            Page<Memory> p = repo.list("alpha", filter, page);
            total = p.total();
            p.items().forEach(m -> paged.add(m.id()));
            if (!p.hasMore()) {
                break;
            }
            page = new PageRequest(7, p.nextCursor());
        }

        assertThat(paged).as("seed %d", SEED).containsExactlyElementsOf(expected);
        assertThat(total).isEqualTo(expected.size());
        assertThat(ids(MemoryFilter.all().withIds(listed))).hasSize(alpha.size());
    }

    @Test
    void findsByContentHashAndConflictKey() {
        Memory a =
                lifecycle.create(
                        "mem_a",
                        NewMemory.of(Scope.of("alpha"), MemoryType.FACT, "Same text.")
                                .withConflictKey("k"),
                        "m1",
                        T0);
        Memory b = memory("mem_b", "alpha", MemoryType.FACT, "same   TEXT");
        repo.write(
                "alpha",
                List.of(MemoryRow.keepEmbedding(a), MemoryRow.keepEmbedding(b)),
                List.of());

        assertThat(repo.withContentHash("alpha", a.contentHash()))
                .extracting(Memory::id)
                .containsExactly("mem_a", "mem_b");
        assertThat(repo.withContentHash("beta", a.contentHash())).isEmpty();
        assertThat(repo.withConflictKey("alpha", "k"))
                .extracting(Memory::id)
                .containsExactly("mem_a");
        assertThat(repo.withConflictKey("alpha", "")).isEmpty();
    }

    @Test
    void maintenanceQueriesFindExpiredUnembeddedAndOverCap() {
        Memory old =
                lifecycle.create(
                        "mem_old",
                        NewMemory.of(Scope.of("alpha", "u1", ""), MemoryType.TASK, "old")
                                .withImportance(0.1),
                        "m0",
                        T0);
        Memory fresh =
                lifecycle.create(
                        "mem_new",
                        NewMemory.of(Scope.of("alpha", "u1", ""), MemoryType.FACT, "new")
                                .withImportance(0.9),
                        "m1",
                        T0);
        repo.write(
                "alpha",
                List.of(MemoryRow.keepEmbedding(old), new MemoryRow(fresh, vec(1f))),
                List.of());

        assertThat(repo.expired("alpha", T0.plus(100, ChronoUnit.DAYS), 10))
                .extracting(Memory::id)
                .containsExactly("mem_old");
        assertThat(repo.needingEmbedding("alpha", "m1", 10))
                .extracting(Memory::id)
                .containsExactly("mem_old");
        assertThat(repo.usersOverCap("alpha", 1)).containsExactly("u1");
        assertThat(repo.overCap("alpha", "u1", 1))
                .extracting(Memory::id)
                .containsExactly("mem_old");
    }

    @Test
    void recordsRecallsWithoutMovingTimeBackwards() {
        Memory m = memory("mem_1", "alpha", MemoryType.FACT, "x");
        repo.write("alpha", List.of(MemoryRow.keepEmbedding(m)), List.of());
        repo.recordRecalls("alpha", Map.of("mem_1", RecallTally.once(T0.plusSeconds(10))));
        repo.recordRecalls("alpha", Map.of("mem_1", new RecallTally(3, T0.plusSeconds(5))));

        Memory read = repo.find("alpha", "mem_1").orElseThrow();
        assertThat(read.recalledCount()).isEqualTo(4);
        assertThat(read.lastRecalledAt()).isEqualTo(T0.plusSeconds(10));
    }

    @Test
    void deletingNamespaceRemovesItsMemoriesAndHistory() {
        Memory m = memory("mem_1", "alpha", MemoryType.FACT, "x");
        repo.write("alpha", List.of(MemoryRow.keepEmbedding(m)), List.of());
        Transitioned t = lifecycle.invalidate(m, T0, "ops", "wrong");
        repo.write("alpha", List.of(MemoryRow.keepEmbedding(t.memory())), t.transitions());

        store.deleteNamespace("alpha");
        store.createNamespace("alpha", "");

        assertThat(repo.find("alpha", "mem_1")).isEmpty();
        assertThat(repo.transitions("alpha", "mem_1")).isEmpty();
    }

    @Test
    void streamsLiveMemoriesWithVectors() {
        Memory a = memory("mem_a", "alpha", MemoryType.FACT, "a");
        Memory b = memory("mem_b", "alpha", MemoryType.FACT, "b");
        Memory gone = memory("mem_c", "alpha", MemoryType.FACT, "c").withDeleted(true, T0);
        repo.write(
                "alpha",
                List.of(
                        new MemoryRow(a, vec(1f)),
                        MemoryRow.keepEmbedding(b),
                        MemoryRow.keepEmbedding(gone)),
                List.of());
        List<String> seen = new ArrayList<>();
        repo.forEachLive("alpha", (m, v, windows) -> seen.add(m.id() + ":" + v.length));

        assertThat(seen).containsExactly("mem_a:" + DIMS, "mem_b:0");
    }

    private Memory turn(String id, String content) {
        NewMemory draft =
                NewMemory.of(new Scope("alpha", "u1", "", "s1", "", ""), MemoryType.EVENT, content)
                        .withSource(MemorySource.of(MemorySource.Kind.CONVERSATION, "s1:" + id));
        return lifecycle.create(id, draft, "m1", T0);
    }

    private List<String> firstValues(List<float[]> vectors) {
        return vectors.stream().map(v -> v[0] + "/" + v.length).toList();
    }

    @Test
    void turnWindowsGoWithTheEmbeddingAndAreKeptWithIt() {
        String said =
                "Caro: "
                        + "so much happened this week that I hardly know where to start ".repeat(4);
        Memory m = turn("mem_w", said);
        repo.write(
                "alpha",
                List.of(new MemoryRow(m, vec(1f), List.of(vec(0.25f), vec(0.75f)))),
                List.of());

        assertThat(firstValues(repo.windows("alpha", "mem_w").orElseThrow()))
                .containsExactly("0.25/" + DIMS, "0.75/" + DIMS);
        List<String> streamed = new ArrayList<>();
        repo.forEachLive("alpha", (x, v, windows) -> streamed.addAll(firstValues(windows)));
        assertThat(streamed).containsExactly("0.25/" + DIMS, "0.75/" + DIMS);
        assertThat(repo.needingWindows("alpha", 10)).isEmpty();

        // a status change keeps the embedding and the windows
        repo.write("alpha", List.of(MemoryRow.keepEmbedding(m.withDisabled(true, T0))), List.of());
        assertThat(repo.windows("alpha", "mem_w").orElseThrow()).hasSize(2);

        // a new embedding without windows clears them: not computed, so maintenance computes them
        repo.write("alpha", List.of(new MemoryRow(m, vec(0.5f))), List.of());
        assertThat(repo.windows("alpha", "mem_w")).isEmpty();
        assertThat(repo.needingWindows("alpha", 10))
                .extracting(Memory::id)
                .containsExactly("mem_w");

        // computed windows, even none, are no longer needed; a kept embedding may take them
        repo.write("alpha", List.of(new MemoryRow(m, new float[0], List.of())), List.of());
        assertThat(repo.needingWindows("alpha", 10)).isEmpty();
        assertThat(repo.windows("alpha", "mem_w")).hasValueSatisfying(w -> assertThat(w).isEmpty());
        assertThat(repo.embedding("alpha", "mem_w")[0]).isEqualTo(0.5f);
        repo.write(
                "alpha", List.of(new MemoryRow(m, new float[0], List.of(vec(0.125f)))), List.of());
        assertThat(firstValues(repo.windows("alpha", "mem_w").orElseThrow()))
                .containsExactly("0.125/" + DIMS);
        assertThat(repo.embedding("alpha", "mem_w")[0]).isEqualTo(0.5f);
    }

    @Test
    void onlyLongConversationTurnsWithAnEmbeddingNeedWindows() {
        String longText =
                "we drove up the coast and stopped at every single bakery on the way ".repeat(3);
        repo.write(
                "alpha",
                List.of(
                        new MemoryRow(turn("mem_long", longText), vec(1f)),
                        new MemoryRow(turn("mem_short", "ok see you thursday"), vec(1f)),
                        MemoryRow.keepEmbedding(turn("mem_unembedded", longText)),
                        new MemoryRow(
                                memory("mem_fact", "alpha", MemoryType.FACT, longText), vec(1f)),
                        new MemoryRow(turn("mem_gone", longText).withDeleted(true, T0), vec(1f))),
                List.of());

        assertThat(repo.needingWindows("alpha", 10))
                .extracting(Memory::id)
                .containsExactly("mem_long");
        assertThat(repo.needingWindows("beta", 10)).isEmpty();
    }

    @Test
    void windowsOfAnotherLengthThanTheStoresVectorsAreRefused() {
        Memory m = turn("mem_bad", "hello");
        assertThatThrownBy(
                        () ->
                                repo.write(
                                        "alpha",
                                        List.of(new MemoryRow(m, vec(1f), List.of(new float[3]))),
                                        List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 dimensions");
        assertThat(repo.find("alpha", "mem_bad")).isEmpty();
    }
}
