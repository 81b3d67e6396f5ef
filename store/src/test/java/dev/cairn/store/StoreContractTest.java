package dev.cairn.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link Store} backend shares. A subclass supplies a fresh, empty location per
 * test and opens stores on it.
 */
abstract class StoreContractTest {

    /** Small vectors keep the tests fast; the behaviour does not depend on the dimension. */
    static final int DIMS = 16;

    static final long SEED = 20261122L;

    protected Store store;

    /** Prepares a fresh, empty location (directory, schema) for the next {@link #open}. */
    protected abstract void newLocation();

    /** Opens a store on the current location; callable several times. */
    protected abstract Store open(StoreConfig config);

    protected abstract Store.Kind expectedKind();

    static StoreConfig config() {
        return StoreConfig.defaults().withDimensions(DIMS).withMaxPoolSize(4);
    }

    @BeforeEach
    void openStore() {
        newLocation();
        store = open(config());
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    // ---- lifecycle and migrations --------------------------------------------------------

    @Test
    void answersItsKindAndPings() {
        assertThat(store.kind()).isEqualTo(expectedKind());
        assertThat(store.config()).isEqualTo(config());
        store.ping();
    }

    @Test
    void reopeningAppliesNoMigrationTwiceAndKeepsData() {
        store.createNamespace("kept", "survives reopening");
        store.replaceDocument("kept", doc("d1", "Title"), chunks(2, true));
        store.close();

        for (int i = 0; i < 2; i++) {
            try (Store again = open(config())) {
                assertThat(again.namespace("kept")).isPresent();
                assertThat(again.document("kept", "d1")).map(StoredDocument::version).contains(1L);
                assertThat(again.chunks("kept", "d1")).hasSize(2);
            }
        }
        store = open(config());
    }

    @Test
    void instanceIdStaysWithTheDatabaseAndDiffersBetweenDatabases() {
        String id = store.instanceId();
        store.deleteNamespace("none"); // a write changes nothing of it
        store.close();
        try (Store again = open(config())) {
            assertThat(again.instanceId()).isEqualTo(id).matches("[0-9a-f]{32}");
        }
        newLocation();
        store = open(config());
        assertThat(store.instanceId()).isNotEqualTo(id).matches("[0-9a-f]{32}");
    }

    @Test
    void twoStoresOpeningOneLocationAtOnceBothSucceed() throws Exception {
        store.close();
        store = null;
        newLocation();
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            Callable<Store> opening = () -> open(config());
            Future<Store> first = pool.submit(opening);
            Future<Store> second = pool.submit(opening);
            try (Store a = first.get();
                    Store b = second.get()) {
                a.createNamespace("shared", "");
                assertThat(b.namespace("shared")).isPresent();
            }
        }
        store = open(config());
    }

    @Test
    void reopeningWithOtherDimensionsIsIllegalState() {
        store.close();
        store = null;
        assertThatThrownBy(() -> open(config().withDimensions(DIMS + 1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(Integer.toString(DIMS));
        store = open(config());
    }

    // ---- namespaces ----------------------------------------------------------------------

    @Test
    void createsFindsAndDeletesNamespaces() {
        Namespace created = store.createNamespace("alpha", "first");

        assertThat(created.name()).isEqualTo("alpha");
        assertThat(store.namespace("alpha")).contains(created);
        assertThat(store.namespace("beta")).isEmpty();
        assertThat(store.deleteNamespace("alpha")).isTrue();
        assertThat(store.deleteNamespace("alpha")).isFalse();
        assertThat(store.namespace("alpha")).isEmpty();
    }

    @Test
    void aNewNamespaceRecallsOneUserAndItsRecallScopeCanBeChanged() {
        assertThat(store.createNamespace("alpha", "first").recallScope())
                .isEqualTo(Namespace.RecallScope.USER);
        assertThat(store.createNamespace("beta", "", Namespace.RecallScope.NAMESPACE).recallScope())
                .isEqualTo(Namespace.RecallScope.NAMESPACE);
        long before = store.lastChangeSeq();

        assertThat(store.setRecallScope("alpha", Namespace.RecallScope.NAMESPACE))
                .map(Namespace::recallScope)
                .contains(Namespace.RecallScope.NAMESPACE);

        assertThat(store.namespace("alpha").orElseThrow().recallScope())
                .isEqualTo(Namespace.RecallScope.NAMESPACE);
        assertThat(store.namespace("beta").orElseThrow().recallScope())
                .isEqualTo(Namespace.RecallScope.NAMESPACE);
        assertThat(store.lastChangeSeq()).as("other servers hear of it").isGreaterThan(before);
        assertThat(store.setRecallScope("gamma", Namespace.RecallScope.USER)).isEmpty();
        assertThat(store.namespace("gamma")).isEmpty();
    }

    @Test
    void creatingAnExistingNamespaceIsIllegalState() {
        store.createNamespace("alpha", "first");

        assertThatThrownBy(() -> store.createNamespace("alpha", "again"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("alpha");
        assertThat(store.namespace("alpha")).map(Namespace::description).contains("first");
    }

    @Test
    void illegalNamespaceNameIsIllegalArgument() {
        assertThatThrownBy(() -> store.createNamespace("Bad Name", ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Bad Name");
    }

    @Test
    void pagesNamespacesByNameWithCursors() {
        List<String> names = List.of("ns-c", "ns-a", "ns-e", "ns-b", "ns-d");
        names.forEach(n -> store.createNamespace(n, ""));

        List<String> seen = new ArrayList<>();
        PageRequest request = PageRequest.first(2);
        int pages = 0;
        while (true) {
            Page<Namespace> page = store.namespaces(request);
            assertThat(page.total()).isEqualTo(5);
            page.items().forEach(n -> seen.add(n.name()));
            pages++;
            if (!page.hasMore()) {
                break;
            }
            request = new PageRequest(2, page.nextCursor());
        }
        assertThat(pages).isEqualTo(3);
        assertThat(seen).containsExactly("ns-a", "ns-b", "ns-c", "ns-d", "ns-e");
    }

    // ---- documents -----------------------------------------------------------------------

    @Test
    void storesDocumentWithAllFields() {
        store.createNamespace("docs", "");
        DocumentDraft draft =
                new DocumentDraft(
                        "runbook-1",
                        "Rebuild the index",
                        DocumentFormat.MARKDOWN,
                        "https://wiki.example/rebuild",
                        Authority.AUTHORITATIVE,
                        List.of("search", "maintenance"),
                        Map.of("owner", "search-team", "tier", "1"),
                        "# Rebuild\n\nSteps.");

        StoredDocument stored = store.replaceDocument("docs", draft, chunks(3, true));

        assertThat(stored.version()).isEqualTo(1);
        assertThat(stored.contentHash()).hasSize(64).isEqualTo(Migrations.sha256(draft.content()));
        assertThat(stored.createdAt()).isEqualTo(stored.updatedAt());
        assertThat(store.document("docs", "runbook-1")).contains(stored);
        List<StoredChunk> chunks = store.chunks("docs", "runbook-1");
        assertThat(chunks)
                .extracting(StoredChunk::id)
                .containsExactly("runbook-1#0", "runbook-1#1", "runbook-1#2");
        assertThat(chunks.get(1).headingPath()).containsExactly("Doc", "Section 1");
        assertThat(chunks.get(1).heading()).isEqualTo("Doc > Section 1");
        assertThat(chunks.get(1).embedding()).containsExactly(vector(1));
        assertThat(chunks.get(1).embeddingModel()).isEqualTo("test-model");
        assertThat(store.chunkCount("docs")).isEqualTo(3);
    }

    @Test
    void hasEmbeddedChunksCountsOnlyChunksWithAnEmbedding() {
        store.createNamespace("docs", "");
        store.replaceDocument("docs", doc("d1", "T"), chunks(3, true));
        store.replaceDocument("docs", doc("d2", "T"), chunks(4, false));

        assertThat(store.hasEmbeddedChunks("docs", 3)).isTrue();
        assertThat(store.hasEmbeddedChunks("docs", 4)).isFalse();
        assertThat(store.hasEmbeddedChunks("docs", 0)).isTrue();
    }

    @Test
    void keepsChunksWithoutEmbedding() {
        store.createNamespace("docs", "");
        store.replaceDocument("docs", doc("d1", "T"), chunks(2, false));

        assertThat(store.chunks("docs", "d1"))
                .allSatisfy(
                        c -> {
                            assertThat(c.embedded()).isFalse();
                            assertThat(c.embeddingModel()).isEmpty();
                        });
    }

    @Test
    void replaceBumpsVersionAndRemovesOldChunks() {
        store.createNamespace("docs", "");
        StoredDocument first = store.replaceDocument("docs", doc("d1", "Old"), chunks(3, true));

        StoredDocument second = store.replaceDocument("docs", doc("d1", "New"), chunks(2, true));
        StoredDocument third = store.replaceDocument("docs", doc("d1", "Newer"), chunks(1, true));

        assertThat(second.version()).isEqualTo(2);
        assertThat(third.version()).isEqualTo(3);
        assertThat(third.createdAt()).isEqualTo(first.createdAt());
        assertThat(store.document("docs", "d1")).map(StoredDocument::title).contains("Newer");
        assertThat(store.chunks("docs", "d1")).extracting(StoredChunk::id).containsExactly("d1#0");
        assertThat(store.chunks("docs", List.of("d1#1", "d1#2"))).isEmpty();
        assertThat(store.chunkCount("docs")).isEqualTo(1);
    }

    @Test
    void replaceWithAWrongDimensionVectorLeavesThePreviousVersionIntact() {
        store.createNamespace("docs", "");
        StoredDocument before = store.replaceDocument("docs", doc("d1", "Good"), chunks(3, true));
        List<StoredChunk> chunksBefore = store.chunks("docs", "d1");
        long seqBefore = store.lastChangeSeq();
        List<ChunkDraft> bad = new ArrayList<>(chunks(4, true));
        bad.set(2, bad.get(2).withEmbedding(new float[DIMS + 3], "test-model"));

        assertThatThrownBy(() -> store.replaceDocument("docs", doc("d1", "Bad"), bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension: " + (DIMS + 3));

        assertThat(store.document("docs", "d1")).contains(before);
        assertThat(store.chunks("docs", "d1")).isEqualTo(chunksBefore);
        assertThat(store.lastChangeSeq()).isEqualTo(seqBefore);
    }

    @Test
    void replaceWithADuplicateOrdinalLeavesThePreviousVersionIntact() {
        store.createNamespace("docs", "");
        StoredDocument before = store.replaceDocument("docs", doc("d1", "Good"), chunks(2, true));
        List<ChunkDraft> bad = new ArrayList<>(chunks(3, true));
        bad.add(bad.get(1));

        assertThatThrownBy(() -> store.replaceDocument("docs", doc("d1", "Bad"), bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ordinal: 1");

        assertThat(store.document("docs", "d1")).contains(before);
        assertThat(store.chunks("docs", "d1")).hasSize(2);
    }

    @Test
    void failedFirstWriteLeavesNoDocument() {
        store.createNamespace("docs", "");
        List<ChunkDraft> bad = new ArrayList<>(chunks(2, true));
        bad.add(bad.get(0));

        assertThatThrownBy(() -> store.replaceDocument("docs", doc("d1", "Bad"), bad))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(store.document("docs", "d1")).isEmpty();
        assertThat(store.chunkCount("docs")).isZero();
    }

    @Test
    void aBatchWriteIsOneTransactionThatKeepsIngestKeys() {
        store.createNamespace("docs", "");
        store.replaceDocument("docs", doc("plain", "No key"), chunks(1, true));
        List<String> besideRows = new ArrayList<>();
        List<StoredDocument> stored =
                store.replaceDocuments(
                        "docs",
                        List.of(
                                new DocumentWrite(doc("d1", "One"), chunks(2, true), "key-1"),
                                new DocumentWrite(doc("d2", "Two"), chunks(3, true), "key-2")),
                        (c, w) -> besideRows.add(w.document().id()));

        assertThat(stored).extracting(StoredDocument::id).containsExactly("d1", "d2");
        assertThat(besideRows).containsExactly("d1", "d2");
        assertThat(store.ingestedDocuments("docs", List.of("d1", "d2", "plain", "missing")))
                .containsOnly(
                        Map.entry("d1", new IngestedDocument("d1", 1, "key-1", 2)),
                        Map.entry("d2", new IngestedDocument("d2", 1, "key-2", 3)));
        // a plain replace forgets the key: that version was not made by the keyed ingest
        store.replaceDocument("docs", doc("d1", "Edited"), chunks(1, true));
        assertThat(store.ingestedDocuments("docs", List.of("d1", "d2"))).containsOnlyKeys("d2");
    }

    @Test
    void aBatchWriteThatFailsOnItsLastDocumentWritesNoneOfTheBatch() {
        store.createNamespace("docs", "");
        long seqBefore = store.lastChangeSeq();
        List<ChunkDraft> bad = new ArrayList<>(chunks(2, true));
        bad.set(1, bad.get(1).withEmbedding(new float[DIMS + 1], "test-model"));

        assertThatThrownBy(
                        () ->
                                store.replaceDocuments(
                                        "docs",
                                        List.of(
                                                new DocumentWrite(
                                                        doc("d1", "Good"), chunks(2, true), "k1"),
                                                new DocumentWrite(doc("d2", "Bad"), bad, "k2")),
                                        Store.AlongsideWrite.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension: " + (DIMS + 1));

        assertThat(store.document("docs", "d1")).isEmpty();
        assertThat(store.chunkCount("docs")).isZero();
        assertThat(store.lastChangeSeq()).isEqualTo(seqBefore);
    }

    @Test
    void writingIntoAnUnknownNamespaceIsNoSuchElement() {
        assertThatThrownBy(() -> store.replaceDocument("nowhere", doc("d1", "T"), chunks(1, true)))
                .isInstanceOf(NoSuchElementException.class)
                .hasMessageContaining("nowhere");
    }

    @Test
    void readingAnUnknownNamespaceAnswersEmpty() {
        assertThat(store.document("nowhere", "d1")).isEmpty();
        assertThat(store.documents("nowhere", PageRequest.first(10), "").items()).isEmpty();
        assertThat(store.chunks("nowhere", "d1")).isEmpty();
        assertThat(store.chunkCount("nowhere")).isZero();
    }

    @Test
    void sameDocumentIdInTwoNamespacesStaysSeparate() {
        store.createNamespace("team-a", "");
        store.createNamespace("team-b", "");
        store.replaceDocument("team-a", doc("shared", "A's"), chunks(2, true));
        store.replaceDocument("team-b", doc("shared", "B's"), chunks(3, true));

        store.replaceDocument("team-a", doc("shared", "A's v2"), chunks(1, true));

        assertThat(store.document("team-a", "shared")).map(StoredDocument::version).contains(2L);
        assertThat(store.document("team-b", "shared")).map(StoredDocument::title).contains("B's");
        assertThat(store.document("team-b", "shared")).map(StoredDocument::version).contains(1L);
        assertThat(store.chunks("team-a", "shared")).hasSize(1);
        assertThat(store.chunks("team-b", "shared"))
                .hasSize(3)
                .allSatisfy(c -> assertThat(c.namespace()).isEqualTo("team-b"));
        assertThat(store.chunks("team-a", List.of("shared#2"))).isEmpty();
        assertThat(store.documents("team-a", PageRequest.first(10), "").items())
                .extracting(StoredDocument::namespace)
                .containsOnly("team-a");
        assertThat(store.denseSearch("team-a", vector(2), 10, DenseOptions.exact()))
                .extracting(DenseHit::chunkId)
                .containsExactly("shared#0");
    }

    @Test
    void pagesDocumentsWithCursorsAndTitleQuery() {
        store.createNamespace("docs", "");
        for (int i = 0; i < 7; i++) {
            String title = (i % 2 == 0 ? "Search " : "Billing ") + "guide " + i;
            store.replaceDocument("docs", doc(String.format("doc-%02d", i), title), List.of());
        }

        List<String> all = new ArrayList<>();
        PageRequest request = PageRequest.first(3);
        while (true) {
            Page<StoredDocument> page = store.documents("docs", request, "");
            assertThat(page.total()).isEqualTo(7);
            page.items().forEach(d -> all.add(d.id()));
            if (!page.hasMore()) {
                break;
            }
            request = new PageRequest(3, page.nextCursor());
        }
        assertThat(all)
                .containsExactly(
                        "doc-00", "doc-01", "doc-02", "doc-03", "doc-04", "doc-05", "doc-06");

        Page<StoredDocument> search = store.documents("docs", PageRequest.first(2), "SEARCH");
        assertThat(search.total()).isEqualTo(4);
        assertThat(search.items())
                .extracting(StoredDocument::id)
                .containsExactly("doc-00", "doc-02");
        Page<StoredDocument> rest =
                store.documents("docs", new PageRequest(2, search.nextCursor()), "SEARCH");
        assertThat(rest.items()).extracting(StoredDocument::id).containsExactly("doc-04", "doc-06");
        assertThat(rest.hasMore()).isFalse();
    }

    @Test
    void aForeignCursorIsIllegalArgument() {
        store.createNamespace("docs", "");

        assertThatThrownBy(() -> store.documents("docs", new PageRequest(5, "%%%"), ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cursor");
    }

    @Test
    void chunksByIdKeepRequestedOrderAndSkipUnknownIds() {
        store.createNamespace("docs", "");
        store.replaceDocument("docs", doc("a", "A"), chunks(3, true));
        store.replaceDocument("docs", doc("b", "B"), chunks(2, true));

        List<StoredChunk> found = store.chunks("docs", List.of("b#1", "missing", "a#2", "a#0"));

        assertThat(found).extracting(StoredChunk::id).containsExactly("b#1", "a#2", "a#0");
    }

    @Test
    void chunksByManyIdsAreAnsweredInBatches() {
        store.createNamespace("docs", "");
        store.replaceDocument("docs", doc("big", "Big"), chunks(1200, false));
        List<String> ids =
                IntStream.range(0, 1200).map(i -> 1199 - i).mapToObj(i -> "big#" + i).toList();

        assertThat(store.chunks("docs", ids)).extracting(StoredChunk::id).isEqualTo(ids);
    }

    @Test
    void deleteDocumentRemovesItsChunks() {
        store.createNamespace("docs", "");
        store.replaceDocument("docs", doc("d1", "One"), chunks(3, true));
        store.replaceDocument("docs", doc("d2", "Two"), chunks(2, true));

        assertThat(store.deleteDocument("docs", "d1")).isTrue();
        assertThat(store.deleteDocument("docs", "d1")).isFalse();

        assertThat(store.document("docs", "d1")).isEmpty();
        assertThat(store.chunks("docs", "d1")).isEmpty();
        assertThat(store.chunkCount("docs")).isEqualTo(2);
        assertThat(store.denseSearch("docs", vector(0), 10, DenseOptions.exact()))
                .extracting(DenseHit::chunkId)
                .allMatch(id -> id.startsWith("d2#"));
    }

    @Test
    void deleteNamespaceCascadesToEverythingInItOnly() {
        store.createNamespace("gone", "");
        store.createNamespace("kept", "");
        store.replaceDocument("gone", doc("d1", "One"), chunks(3, true));
        store.replaceDocument("kept", doc("d1", "One"), chunks(2, true));

        assertThat(store.deleteNamespace("gone")).isTrue();

        assertThat(store.document("gone", "d1")).isEmpty();
        assertThat(store.chunkCount("gone")).isZero();
        assertThat(store.chunkCount("kept")).isEqualTo(2);
        store.createNamespace("gone", "again");
        assertThat(store.documents("gone", PageRequest.first(10), "").total()).isZero();
        assertThat(store.denseSearch("gone", vector(1), 5, DenseOptions.exact())).isEmpty();
    }

    @Test
    void unicodeRoundTripsAndTitleQueryIgnoresCase() {
        store.createNamespace("intl", "Ünïcödé ✓");
        String content = "Grüße 🌍 — 日本語のテキスト, עברית, e\u0301, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢\n\ttabs";
        DocumentDraft draft =
                new DocumentDraft(
                        "dóc/ü-🚀",
                        "ÄRGER mit Ölpreisen — 東京",
                        DocumentFormat.TEXT,
                        "file:///tmp/ü.txt",
                        Authority.SUPPORTING,
                        List.of("täg", "标签"),
                        Map.of("clé", "välue 🎉"),
                        content);
        ChunkDraft chunk =
                new ChunkDraft(0, List.of("Überschrift", "小見出し"), content, 12, vector(3), "m");

        store.replaceDocument("intl", draft, List.of(chunk));

        StoredDocument stored = store.document("intl", "dóc/ü-🚀").orElseThrow();
        assertThat(stored.title()).isEqualTo(draft.title());
        assertThat(stored.content()).isEqualTo(content);
        assertThat(stored.tags()).isEqualTo(draft.tags());
        assertThat(stored.metadata()).isEqualTo(draft.metadata());
        assertThat(store.namespace("intl")).map(Namespace::description).contains("Ünïcödé ✓");
        StoredChunk storedChunk = store.chunks("intl", "dóc/ü-🚀").get(0);
        assertThat(storedChunk.id()).isEqualTo("dóc/ü-🚀#0");
        assertThat(storedChunk.text()).isEqualTo(content);
        assertThat(storedChunk.headingPath()).containsExactly("Überschrift", "小見出し");
        assertThat(store.documents("intl", PageRequest.first(5), "ärger").items()).hasSize(1);
        assertThat(store.documents("intl", PageRequest.first(5), "東京").items()).hasSize(1);
        assertThat(store.documents("intl", PageRequest.first(5), "berlin").items()).isEmpty();
    }

    @Test
    void concurrentReplacesOfOneDocumentAllLand() throws Exception {
        store.createNamespace("busy", "");
        int threads = 4;
        int rounds = 5;
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(
                        pool.submit(
                                () -> {
                                    for (int r = 0; r < rounds; r++) {
                                        store.replaceDocument(
                                                "busy",
                                                doc("hot", "t" + thread + " r" + r),
                                                chunks(1 + r, true));
                                    }
                                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        }

        StoredDocument last = store.document("busy", "hot").orElseThrow();
        assertThat(last.version()).isEqualTo(threads * rounds);
        assertThat(store.chunks("busy", "hot"))
                .hasSize(
                        Integer.parseInt(last.title().substring(last.title().indexOf('r') + 1))
                                + 1);
        assertThat(store.changesSince(0, 1000))
                .filteredOn(c -> c.kind() == Change.Kind.DOCUMENT)
                .hasSize(threads * rounds);
    }

    @Test
    void readersSeeWholeVersionsWhileAnotherThreadReplaces() throws Exception {
        store.createNamespace("live", "");
        store.replaceDocument("live", doc("doc", "v"), chunks(4, true));
        int rounds = 15;
        try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
            Future<?> writer =
                    pool.submit(
                            () -> {
                                for (int r = 0; r < rounds; r++) {
                                    store.replaceDocument(
                                            "live",
                                            doc("doc", "v"),
                                            chunks(r % 2 == 0 ? 2 : 4, true));
                                }
                            });
            List<Future<Set<Integer>>> readers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                readers.add(
                        pool.submit(
                                () -> {
                                    Set<Integer> sizes = new HashSet<>();
                                    while (!writer.isDone()) {
                                        sizes.add(store.chunks("live", "doc").size());
                                        store.denseSearch(
                                                "live", vector(1), 3, DenseOptions.exact());
                                    }
                                    return sizes;
                                }));
            }
            writer.get();
            for (Future<Set<Integer>> reader : readers) {
                assertThat(reader.get()).isSubsetOf(2, 4);
            }
        }
        assertThat(store.document("live", "doc"))
                .map(StoredDocument::version)
                .contains(rounds + 1L);
    }

    // ---- change sequence -----------------------------------------------------------------

    @Test
    void changeSequenceRecordsEveryWriteInOrder() {
        long start = store.lastChangeSeq();
        store.createNamespace("log", "");
        store.replaceDocument("log", doc("d1", "One"), chunks(1, true));
        store.replaceDocument("log", doc("d1", "One v2"), chunks(1, true));
        store.replaceDocument("log", doc("d2", "Two"), List.of());
        store.deleteDocument("log", "d1");
        store.deleteDocument("log", "d1"); // no change: nothing deleted

        List<Change> changes = store.changesSince(start, 100);

        assertThat(changes)
                .extracting(c -> c.kind() + " " + c.op() + " " + c.entityId())
                .containsExactly(
                        "NAMESPACE UPSERT log",
                        "DOCUMENT UPSERT d1",
                        "DOCUMENT UPSERT d1",
                        "DOCUMENT UPSERT d2",
                        "DOCUMENT DELETE d1");
        assertThat(changes).extracting(Change::namespace).containsOnly("log");
        assertThat(changes).extracting(Change::seq).isSorted().doesNotHaveDuplicates();
        assertThat(store.lastChangeSeq()).isEqualTo(changes.get(changes.size() - 1).seq());
    }

    @Test
    void catchUpInSmallBatchesSeesEveryChangeOnce() {
        long applied = store.lastChangeSeq();
        store.createNamespace("one", "");
        store.createNamespace("two", "");
        for (int i = 0; i < 5; i++) {
            store.replaceDocument(i % 2 == 0 ? "one" : "two", doc("d" + i, "T"), List.of());
        }
        List<Change> everything = store.changesSince(applied, 1000);

        List<Change> caughtUp = new ArrayList<>();
        List<Change> batch;
        while (!(batch = store.changesSince(applied, 2)).isEmpty()) {
            assertThat(batch).hasSizeLessThanOrEqualTo(2);
            caughtUp.addAll(batch);
            applied = batch.get(batch.size() - 1).seq();
        }

        assertThat(everything).hasSize(7);
        assertThat(caughtUp).isEqualTo(everything);
        assertThat(applied).isEqualTo(store.lastChangeSeq());
    }

    @Test
    void deletingANamespaceLeavesOneNamespaceDeleteInTheSequence() {
        long start = store.lastChangeSeq();
        store.createNamespace("tmp", "");
        store.replaceDocument("tmp", doc("d1", "T"), List.of());

        store.deleteNamespace("tmp");

        assertThat(store.changesSince(start, 100))
                .extracting(c -> c.kind() + " " + c.op() + " " + c.entityId())
                .containsExactly("NAMESPACE DELETE tmp");
    }

    @Test
    void illegalChangeQueriesAreIllegalArgument() {
        assertThatThrownBy(() -> store.changesSince(-1, 10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.changesSince(0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit: 0");
    }

    // ---- dense search --------------------------------------------------------------------

    @Test
    void exactDenseSearchOrdersLikeBruteForceCosine() {
        Map<String, float[]> vectors = fillRandom("vec", 5, 40, new Random(SEED));
        for (long s = 0; s < 5; s++) {
            float[] query = randomVector(new Random(SEED + 100 + s));

            List<DenseHit> hits = store.denseSearch("vec", query, 15, DenseOptions.exact());

            List<DenseHit> expected = bruteForce(vectors, query, 15);
            assertThat(hits).as("seed %d", SEED + 100 + s).hasSize(15);
            for (int i = 0; i < hits.size(); i++) {
                assertThat(hits.get(i).similarity())
                        .as("rank %d, seed %d", i, SEED + 100 + s)
                        .isCloseTo(expected.get(i).similarity(), within(1e-5));
            }
            assertThat(hits)
                    .extracting(DenseHit::chunkId)
                    .as("seed %d", SEED + 100 + s)
                    .isEqualTo(expected.stream().map(DenseHit::chunkId).toList());
        }
    }

    @Test
    void approximateDenseSearchRecallsAlmostAllOfTheTrueNeighbours() {
        Map<String, float[]> vectors = fillRandom("vec", 20, 50, new Random(SEED));
        fillRandom("noise", 5, 50, new Random(SEED + 1)); // other namespace in the same index
        int k = 10;
        int found = 0;
        int queries = 20;
        for (int s = 0; s < queries; s++) {
            float[] query = randomVector(new Random(SEED + 1000 + s));
            List<DenseHit> hits = store.denseSearch("vec", query, k, DenseOptions.approximate(100));
            Set<String> truth = new HashSet<>();
            bruteForce(vectors, query, k).forEach(h -> truth.add(h.chunkId()));
            assertThat(hits)
                    .hasSize(k)
                    .extracting(DenseHit::chunkId)
                    .allMatch(id -> id.startsWith("d"));
            assertThat(hits)
                    .extracting(DenseHit::similarity)
                    .isSortedAccordingTo(Comparator.reverseOrder());
            found += (int) hits.stream().filter(h -> truth.contains(h.chunkId())).count();
        }
        double recall = found / (double) (k * queries);
        assertThat(recall)
                .as("recall@%d over %d queries, seed %d", k, queries, SEED)
                .isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void autoDenseSearchIsExactBelowTheThreshold() {
        Map<String, float[]> vectors = fillRandom("vec", 2, 30, new Random(SEED));
        float[] query = randomVector(new Random(SEED + 7));

        List<DenseHit> hits = store.denseSearch("vec", query, 5, DenseOptions.defaults());

        assertThat(hits)
                .extracting(DenseHit::chunkId)
                .isEqualTo(bruteForce(vectors, query, 5).stream().map(DenseHit::chunkId).toList());
    }

    @Test
    void denseSearchSkipsChunksWithoutEmbedding() {
        store.createNamespace("vec", "");
        store.replaceDocument("vec", doc("plain", "P"), chunks(3, false));
        store.replaceDocument("vec", doc("dense", "D"), chunks(2, true));

        assertThat(store.denseSearch("vec", vector(0), 10, DenseOptions.exact()))
                .extracting(DenseHit::chunkId)
                .containsExactlyInAnyOrder("dense#0", "dense#1");
    }

    @Test
    void denseSearchRejectsBadQueries() {
        store.createNamespace("vec", "");

        assertThatThrownBy(
                        () ->
                                store.denseSearch(
                                        "vec", new float[DIMS - 1], 5, DenseOptions.exact()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension: " + (DIMS - 1));
        assertThatThrownBy(() -> store.denseSearch("vec", new float[DIMS], 5, DenseOptions.exact()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zeros");
        assertThatThrownBy(() -> store.denseSearch("vec", vector(1), 0, DenseOptions.exact()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("k: 0");
    }

    @Test
    void forEachEmbeddingStreamsEveryEmbeddedChunkOfTheNamespace() {
        Map<String, float[]> vectors = fillRandom("vec", 3, 4, new Random(SEED));
        store.replaceDocument("vec", doc("plain", "P"), chunks(2, false));
        fillRandom("other", 1, 3, new Random(SEED + 5));

        Map<String, float[]> streamed = new LinkedHashMap<>();
        store.forEachEmbedding("vec", streamed::put);

        assertThat(streamed.keySet()).containsExactlyInAnyOrderElementsOf(vectors.keySet());
        streamed.forEach((id, v) -> assertThat(v).as(id).containsExactly(vectors.get(id)));
    }

    // ---- helpers -------------------------------------------------------------------------

    static DocumentDraft doc(String id, String title) {
        return DocumentDraft.of(id, title, DocumentFormat.MARKDOWN, "content of " + id);
    }

    /** {@code n} chunks; chunk i has the vector {@link #vector(int) vector(i)} when embedded. */
    static List<ChunkDraft> chunks(int n, boolean embedded) {
        List<ChunkDraft> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(
                    new ChunkDraft(
                            i,
                            List.of("Doc", "Section " + i),
                            "chunk text " + i,
                            3,
                            embedded ? vector(i) : new float[0],
                            embedded ? "test-model" : ""));
        }
        return out;
    }

    /** A distinct non-zero vector per i. */
    static float[] vector(int i) {
        float[] v = new float[DIMS];
        v[i % DIMS] = 1f;
        v[(i + 1) % DIMS] = 0.5f + (i % 7) * 0.1f;
        return v;
    }

    static float[] randomVector(Random random) {
        float[] v = new float[DIMS];
        for (int i = 0; i < DIMS; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }

    /** Creates namespace {@code ns} with {@code docs} documents of {@code perDoc} random chunks. */
    Map<String, float[]> fillRandom(String ns, int docs, int perDoc, Random random) {
        store.createNamespace(ns, "");
        Map<String, float[]> vectors = new LinkedHashMap<>();
        for (int d = 0; d < docs; d++) {
            String id = "d" + d;
            List<ChunkDraft> chunks = new ArrayList<>();
            for (int i = 0; i < perDoc; i++) {
                float[] v = randomVector(random);
                chunks.add(new ChunkDraft(i, List.of(), "t", 1, v, "test-model"));
                vectors.put(StoredChunk.chunkId(id, i), v);
            }
            store.replaceDocument(ns, doc(id, "T" + d), chunks);
        }
        return vectors;
    }

    static List<DenseHit> bruteForce(Map<String, float[]> vectors, float[] query, int k) {
        double qn = 0;
        for (float x : query) {
            qn += (double) x * x;
        }
        double queryNorm = Math.sqrt(qn);
        return vectors.entrySet().stream()
                .map(e -> new DenseHit(e.getKey(), cosine(query, queryNorm, e.getValue())))
                .sorted(
                        Comparator.comparingDouble(DenseHit::similarity)
                                .reversed()
                                .thenComparing(DenseHit::chunkId))
                .limit(k)
                .toList();
    }

    private static double cosine(float[] q, double queryNorm, float[] v) {
        double dot = 0;
        double norm = 0;
        for (int i = 0; i < v.length; i++) {
            dot += (double) q[i] * v[i];
            norm += (double) v[i] * v[i];
        }
        return dot / (queryNorm * Math.sqrt(norm));
    }

    // ---- forgetting a user ---------------------------------------------------------------

    @Test
    void forgettingAUserRunsTheEraseAndKeepsAnAuditRecordWithoutContent() {
        store.createNamespace("forget", "");
        long before = store.lastChangeSeq();
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("memories", 3L);
        counts.put("messages", 0L);

        ForgetRecord record =
                store.forgetUser(
                        "forget",
                        "alice",
                        "ops-token",
                        c -> {
                            store.sql()
                                    .appendChange(
                                            c,
                                            "forget",
                                            Change.Kind.MEMORY,
                                            "m1",
                                            Change.Op.DELETE);
                            return counts;
                        });

        assertThat(record.namespace()).isEqualTo("forget");
        assertThat(record.userId()).isEqualTo("alice");
        assertThat(record.requestedBy()).isEqualTo("ops-token");
        assertThat(record.counts())
                .containsExactly(Map.entry("memories", 3L), Map.entry("messages", 0L));
        assertThat(record.total()).isEqualTo(3);
        assertThat(store.forgetRecords("forget")).containsExactly(record);
        // the erase's deletions first, then the USER change naming the record, not the user
        assertThat(store.changesSince(before, 10))
                .extracting(Change::kind, Change::entityId, Change::op)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                Change.Kind.MEMORY, "m1", Change.Op.DELETE),
                        org.assertj.core.groups.Tuple.tuple(
                                Change.Kind.USER, record.id(), Change.Op.DELETE));
        // the record outlives its namespace
        assertThat(store.deleteNamespace("forget")).isTrue();
        assertThat(store.forgetRecords("forget")).containsExactly(record);
    }

    @Test
    void aFailingEraseLeavesNoAuditRecordAndNoChange() {
        store.createNamespace("forget", "");
        long before = store.lastChangeSeq();

        assertThatThrownBy(
                        () ->
                                store.forgetUser(
                                        "forget",
                                        "alice",
                                        "ops-token",
                                        c -> {
                                            store.sql()
                                                    .appendChange(
                                                            c,
                                                            "forget",
                                                            Change.Kind.MEMORY,
                                                            "m1",
                                                            Change.Op.DELETE);
                                            throw new IllegalStateException("disk full");
                                        }))
                .hasMessageContaining("disk full");

        assertThat(store.forgetRecords("forget")).isEmpty();
        assertThat(store.lastChangeSeq()).isEqualTo(before);
    }

    @Test
    void forgettingNeedsAnExistingNamespaceAndAUser() {
        assertThatThrownBy(() -> store.forgetUser("nowhere", "alice", "ops", c -> Map.of()))
                .isInstanceOf(NoSuchElementException.class);
        store.createNamespace("forget", "");
        assertThatThrownBy(() -> store.forgetUser("forget", " ", "ops", c -> Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("userId");
        assertThat(store.forgetRecords("forget")).isEmpty();
    }
}
