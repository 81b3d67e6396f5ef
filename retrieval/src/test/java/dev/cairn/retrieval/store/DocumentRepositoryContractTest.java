package dev.cairn.retrieval.store;

import static dev.cairn.retrieval.store.TestDocuments.chunks;
import static dev.cairn.retrieval.store.TestDocuments.doc;
import static dev.cairn.retrieval.store.TestDocuments.vector;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.store.Change;
import dev.cairn.store.Namespace;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.ScatteredIds;
import dev.cairn.store.Sha256;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link DocumentRepository} contract: documents and chunks in the store, each write one
 * transaction with its change row; one subclass per store backend.
 */
abstract class DocumentRepositoryContractTest {

    static final int DIMS = TestDocuments.DIMS;

    static final long SEED = 20261122L;

    protected Store store;
    protected DocumentRepository documents;

    /** Opens a store on this test's location (the same one each call). */
    protected abstract Store open(StoreConfig config);

    static StoreConfig config() {
        return StoreConfig.defaults().withDimensions(DIMS).withMaxPoolSize(4);
    }

    @BeforeEach
    void openStore() {
        store = open(config());
        documents = DocumentRepository.over(store);
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    /**
     * The ids of the namespace's embedded chunks, as {@link DocumentRepository#forEachEmbedding}
     * streams them.
     */
    private Set<String> embeddedChunkIds(String namespace) {
        Set<String> ids = new TreeSet<>();
        documents.forEachEmbedding(namespace, (id, vector) -> ids.add(id));
        return ids;
    }

    @Test
    void reopeningAppliesNoMigrationTwiceAndKeepsData() {
        store.createNamespace("kept", "survives reopening");
        documents.replaceDocument("kept", doc("d1", "Title"), chunks(2, true));
        store.close();

        for (int i = 0; i < 2; i++) {
            try (Store again = open(config())) {
                DocumentRepository reopened = DocumentRepository.over(again);
                assertThat(again.namespace("kept")).isPresent();
                assertThat(reopened.document("kept", "d1"))
                        .map(StoredDocument::version)
                        .contains(1L);
                assertThat(reopened.chunks("kept", "d1")).hasSize(2);
            }
        }
        store = open(config());
        documents = DocumentRepository.over(store);
    }

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

        StoredDocument stored = documents.replaceDocument("docs", draft, chunks(3, true));

        assertThat(stored.version()).isEqualTo(1);
        assertThat(stored.contentHash()).hasSize(64).isEqualTo(Sha256.hex(draft.content()));
        assertThat(stored.createdAt()).isEqualTo(stored.updatedAt());
        assertThat(documents.document("docs", "runbook-1")).contains(stored);
        List<StoredChunk> chunks = documents.chunks("docs", "runbook-1");
        assertThat(chunks)
                .extracting(StoredChunk::id)
                .containsExactly("runbook-1#0", "runbook-1#1", "runbook-1#2");
        assertThat(chunks.get(1).headingPath()).containsExactly("Doc", "Section 1");
        assertThat(chunks.get(1).heading()).isEqualTo("Doc > Section 1");
        assertThat(chunks.get(1).embedding()).containsExactly(vector(1));
        assertThat(chunks.get(1).embeddingModel()).isEqualTo("test-model");
        assertThat(documents.chunkCount("docs")).isEqualTo(3);
    }

    @Test
    void hasEmbeddedChunksCountsOnlyChunksWithAnEmbedding() {
        store.createNamespace("docs", "");
        documents.replaceDocument("docs", doc("d1", "T"), chunks(3, true));
        documents.replaceDocument("docs", doc("d2", "T"), chunks(4, false));

        assertThat(documents.hasEmbeddedChunks("docs", 3)).isTrue();
        assertThat(documents.hasEmbeddedChunks("docs", 4)).isFalse();
        assertThat(documents.hasEmbeddedChunks("docs", 0)).isTrue();
    }

    @Test
    void keepsChunksWithoutEmbedding() {
        store.createNamespace("docs", "");
        documents.replaceDocument("docs", doc("d1", "T"), chunks(2, false));

        assertThat(documents.chunks("docs", "d1"))
                .allSatisfy(
                        c -> {
                            assertThat(c.embedded()).isFalse();
                            assertThat(c.embeddingModel()).isEmpty();
                        });
    }

    @Test
    void replaceBumpsVersionAndRemovesOldChunks() {
        store.createNamespace("docs", "");
        StoredDocument first = documents.replaceDocument("docs", doc("d1", "Old"), chunks(3, true));

        StoredDocument second =
                documents.replaceDocument("docs", doc("d1", "New"), chunks(2, true));
        StoredDocument third =
                documents.replaceDocument("docs", doc("d1", "Newer"), chunks(1, true));

        assertThat(second.version()).isEqualTo(2);
        assertThat(third.version()).isEqualTo(3);
        assertThat(third.createdAt()).isEqualTo(first.createdAt());
        assertThat(documents.document("docs", "d1")).map(StoredDocument::title).contains("Newer");
        assertThat(documents.chunks("docs", "d1"))
                .extracting(StoredChunk::id)
                .containsExactly("d1#0");
        assertThat(documents.chunks("docs", List.of("d1#1", "d1#2"))).isEmpty();
        assertThat(documents.chunkCount("docs")).isEqualTo(1);
    }

    @Test
    void replaceWithAWrongDimensionVectorLeavesThePreviousVersionIntact() {
        store.createNamespace("docs", "");
        StoredDocument before =
                documents.replaceDocument("docs", doc("d1", "Good"), chunks(3, true));
        List<StoredChunk> chunksBefore = documents.chunks("docs", "d1");
        long seqBefore = store.lastChangeSeq();
        List<ChunkDraft> bad = new ArrayList<>(chunks(4, true));
        bad.set(2, bad.get(2).withEmbedding(new float[DIMS + 3], "test-model"));

        assertThatThrownBy(() -> documents.replaceDocument("docs", doc("d1", "Bad"), bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension: " + (DIMS + 3));

        assertThat(documents.document("docs", "d1")).contains(before);
        assertThat(documents.chunks("docs", "d1")).isEqualTo(chunksBefore);
        assertThat(store.lastChangeSeq()).isEqualTo(seqBefore);
    }

    @Test
    void replaceWithADuplicateOrdinalLeavesThePreviousVersionIntact() {
        store.createNamespace("docs", "");
        StoredDocument before =
                documents.replaceDocument("docs", doc("d1", "Good"), chunks(2, true));
        List<ChunkDraft> bad = new ArrayList<>(chunks(3, true));
        bad.add(bad.get(1));

        assertThatThrownBy(() -> documents.replaceDocument("docs", doc("d1", "Bad"), bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ordinal: 1");

        assertThat(documents.document("docs", "d1")).contains(before);
        assertThat(documents.chunks("docs", "d1")).hasSize(2);
    }

    @Test
    void failedFirstWriteLeavesNoDocument() {
        store.createNamespace("docs", "");
        List<ChunkDraft> bad = new ArrayList<>(chunks(2, true));
        bad.add(bad.get(0));

        assertThatThrownBy(() -> documents.replaceDocument("docs", doc("d1", "Bad"), bad))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(documents.document("docs", "d1")).isEmpty();
        assertThat(documents.chunkCount("docs")).isZero();
    }

    @Test
    void aBatchWriteIsOneTransactionThatKeepsIngestKeys() {
        store.createNamespace("docs", "");
        documents.replaceDocument("docs", doc("plain", "No key"), chunks(1, true));
        List<String> besideRows = new ArrayList<>();
        List<StoredDocument> stored =
                documents.replaceDocuments(
                        "docs",
                        List.of(
                                new DocumentWrite(doc("d1", "One"), chunks(2, true), "key-1"),
                                new DocumentWrite(doc("d2", "Two"), chunks(3, true), "key-2")),
                        (c, w) -> besideRows.add(w.document().id()));

        assertThat(stored).extracting(StoredDocument::id).containsExactly("d1", "d2");
        assertThat(besideRows).containsExactly("d1", "d2");
        assertThat(documents.ingestedDocuments("docs", List.of("d1", "d2", "plain", "missing")))
                .containsOnly(
                        Map.entry("d1", new IngestedDocument("d1", 1, "key-1", 2)),
                        Map.entry("d2", new IngestedDocument("d2", 1, "key-2", 3)));
        // a plain replace forgets the key: that version was not made by the keyed ingest
        documents.replaceDocument("docs", doc("d1", "Edited"), chunks(1, true));
        assertThat(documents.ingestedDocuments("docs", List.of("d1", "d2"))).containsOnlyKeys("d2");
    }

    @Test
    void aBatchWriteThatFailsOnItsLastDocumentWritesNoneOfTheBatch() {
        store.createNamespace("docs", "");
        long seqBefore = store.lastChangeSeq();
        List<ChunkDraft> bad = new ArrayList<>(chunks(2, true));
        bad.set(1, bad.get(1).withEmbedding(new float[DIMS + 1], "test-model"));

        assertThatThrownBy(
                        () ->
                                documents.replaceDocuments(
                                        "docs",
                                        List.of(
                                                new DocumentWrite(
                                                        doc("d1", "Good"), chunks(2, true), "k1"),
                                                new DocumentWrite(doc("d2", "Bad"), bad, "k2")),
                                        DocumentRepository.AlongsideWrite.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension: " + (DIMS + 1));

        assertThat(documents.document("docs", "d1")).isEmpty();
        assertThat(documents.chunkCount("docs")).isZero();
        assertThat(store.lastChangeSeq()).isEqualTo(seqBefore);
    }

    @Test
    void writingIntoAnUnknownNamespaceIsNoSuchElement() {
        assertThatThrownBy(
                        () -> documents.replaceDocument("nowhere", doc("d1", "T"), chunks(1, true)))
                .isInstanceOf(NoSuchElementException.class)
                .hasMessageContaining("nowhere");
    }

    @Test
    void readingAnUnknownNamespaceAnswersEmpty() {
        assertThat(documents.document("nowhere", "d1")).isEmpty();
        assertThat(documents.documents("nowhere", PageRequest.first(10), "").items()).isEmpty();
        assertThat(documents.chunks("nowhere", "d1")).isEmpty();
        assertThat(documents.chunkCount("nowhere")).isZero();
    }

    @Test
    void sameDocumentIdInTwoNamespacesStaysSeparate() {
        store.createNamespace("team-a", "");
        store.createNamespace("team-b", "");
        documents.replaceDocument("team-a", doc("shared", "A's"), chunks(2, true));
        documents.replaceDocument("team-b", doc("shared", "B's"), chunks(3, true));

        documents.replaceDocument("team-a", doc("shared", "A's v2"), chunks(1, true));

        assertThat(documents.document("team-a", "shared"))
                .map(StoredDocument::version)
                .contains(2L);
        assertThat(documents.document("team-b", "shared"))
                .map(StoredDocument::title)
                .contains("B's");
        assertThat(documents.document("team-b", "shared"))
                .map(StoredDocument::version)
                .contains(1L);
        assertThat(documents.chunks("team-a", "shared")).hasSize(1);
        assertThat(documents.chunks("team-b", "shared"))
                .hasSize(3)
                .allSatisfy(c -> assertThat(c.namespace()).isEqualTo("team-b"));
        assertThat(documents.chunks("team-a", List.of("shared#2"))).isEmpty();
        assertThat(documents.documents("team-a", PageRequest.first(10), "").items())
                .extracting(StoredDocument::namespace)
                .containsOnly("team-a");
        assertThat(embeddedChunkIds("team-a")).containsExactly("shared#0");
    }

    @Test
    void pagesDocumentsWithCursorsAndTitleQuery() {
        store.createNamespace("docs", "");
        for (int i = 0; i < 7; i++) {
            String title = (i % 2 == 0 ? "Search " : "Billing ") + "guide " + i;
            documents.replaceDocument("docs", doc(String.format("doc-%02d", i), title), List.of());
        }

        List<String> all = new ArrayList<>();
        PageRequest request = PageRequest.first(3);
        while (true) {
            Page<StoredDocument> page = documents.documents("docs", request, "");
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

        Page<StoredDocument> search = documents.documents("docs", PageRequest.first(2), "SEARCH");
        assertThat(search.total()).isEqualTo(4);
        assertThat(search.items())
                .extracting(StoredDocument::id)
                .containsExactly("doc-00", "doc-02");
        Page<StoredDocument> rest =
                documents.documents("docs", new PageRequest(2, search.nextCursor()), "SEARCH");
        assertThat(rest.items()).extracting(StoredDocument::id).containsExactly("doc-04", "doc-06");
        assertThat(rest.hasMore()).isFalse();
    }

    @Test
    void aForeignCursorIsIllegalArgument() {
        store.createNamespace("docs", "");

        assertThatThrownBy(() -> documents.documents("docs", new PageRequest(5, "%%%"), ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cursor");
    }

    @Test
    void chunksByIdKeepRequestedOrderAndSkipUnknownIds() {
        store.createNamespace("docs", "");
        documents.replaceDocument("docs", doc("a", "A"), chunks(3, true));
        documents.replaceDocument("docs", doc("b", "B"), chunks(2, true));

        List<StoredChunk> found = documents.chunks("docs", List.of("b#1", "missing", "a#2", "a#0"));

        assertThat(found).extracting(StoredChunk::id).containsExactly("b#1", "a#2", "a#0");
    }

    @Test
    void chunksByManyIdsAreAnsweredInBatches() {
        store.createNamespace("docs", "");
        documents.replaceDocument("docs", doc("big", "Big"), chunks(1200, false));
        List<String> ids =
                IntStream.range(0, 1200).map(i -> 1199 - i).mapToObj(i -> "big#" + i).toList();

        assertThat(documents.chunks("docs", ids)).extracting(StoredChunk::id).isEqualTo(ids);
    }

    /** {@code ids} in {@code ns} in one batch, document i with i % 3 + 1 chunks. */
    private void writeKeyed(String ns, List<String> ids) {
        List<DocumentWrite> writes = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            writes.add(new DocumentWrite(doc(id, id), chunks(i % 3 + 1, false), ns + "-key-" + id));
        }
        documents.replaceDocuments(ns, writes, (c, w) -> {});
    }

    /**
     * Namespaces docs and beside: keyed documents d00, d01, ... ({@code n}) in docs, {@code beside}
     * in beside; the ids in docs.
     */
    private List<String> keyedInDocsAndBeside(int n, List<String> beside) {
        store.createNamespace("docs", "");
        store.createNamespace("beside", "");
        List<String> ids = IntStream.range(0, n).mapToObj(i -> String.format("d%02d", i)).toList();
        writeKeyed("docs", ids);
        writeKeyed("beside", beside);
        return ids;
    }

    @Test
    void ingestedDocumentsAreTheListedKeyedDocumentsOfTheNamespaceOnly() {
        List<String> ids = keyedInDocsAndBeside(30, List.of("d01", "d02", "d03", "only-beside"));
        documents.replaceDocument("docs", doc("plain", "No key"), chunks(1, false));
        Map<String, IngestedDocument> expected = new LinkedHashMap<>();
        List<String> listed = new ArrayList<>(List.of("plain", "only-beside"));
        for (int i = 1; i < ids.size(); i += 2) {
            String id = ids.get(i);
            expected.put(id, new IngestedDocument(id, 1, "docs-key-" + id, i % 3 + 1));
            listed.add(id);
        }

        assertThat(documents.ingestedDocuments("docs", ScatteredIds.among(listed, SEED)))
                .as("seed %d", SEED)
                .containsExactlyInAnyOrderEntriesOf(expected);
    }

    @Test
    void chunksByIdsAmongManyOthersAreTheNamespacesInTheListsOrder() {
        List<String> ids = keyedInDocsAndBeside(20, List.of("d00", "d01", "only-beside"));
        List<String> wanted = new ArrayList<>();
        for (int i = 0; i < ids.size(); i += 2) {
            wanted.add(StoredChunk.chunkId(ids.get(i), 0));
        }
        wanted.add(StoredChunk.chunkId("d01", 1)); // d01 has two chunks
        List<String> listed = new ArrayList<>(wanted);
        listed.add(StoredChunk.chunkId("only-beside", 0));
        listed.add(StoredChunk.chunkId("d00", 1)); // d00 has one chunk
        List<String> list = ScatteredIds.among(listed, SEED);

        List<StoredChunk> found = documents.chunks("docs", list);

        assertThat(found)
                .as("seed %d", SEED)
                .extracting(StoredChunk::id)
                .containsExactlyElementsOf(
                        list.stream().filter(wanted::contains).distinct().toList());
        assertThat(found).extracting(StoredChunk::namespace).containsOnly("docs");
    }

    @Test
    void deleteDocumentRemovesItsChunks() {
        store.createNamespace("docs", "");
        documents.replaceDocument("docs", doc("d1", "One"), chunks(3, true));
        documents.replaceDocument("docs", doc("d2", "Two"), chunks(2, true));

        assertThat(documents.deleteDocument("docs", "d1")).isTrue();
        assertThat(documents.deleteDocument("docs", "d1")).isFalse();

        assertThat(documents.document("docs", "d1")).isEmpty();
        assertThat(documents.chunks("docs", "d1")).isEmpty();
        assertThat(documents.chunkCount("docs")).isEqualTo(2);
        assertThat(embeddedChunkIds("docs")).containsExactly("d2#0", "d2#1");
    }

    @Test
    void deleteNamespaceCascadesToEverythingInItOnly() {
        store.createNamespace("gone", "");
        store.createNamespace("kept", "");
        documents.replaceDocument("gone", doc("d1", "One"), chunks(3, true));
        documents.replaceDocument("kept", doc("d1", "One"), chunks(2, true));

        assertThat(store.deleteNamespace("gone")).isTrue();

        assertThat(documents.document("gone", "d1")).isEmpty();
        assertThat(documents.chunkCount("gone")).isZero();
        assertThat(documents.chunkCount("kept")).isEqualTo(2);
        store.createNamespace("gone", "again");
        assertThat(documents.documents("gone", PageRequest.first(10), "").total()).isZero();
        assertThat(embeddedChunkIds("gone")).isEmpty();
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

        documents.replaceDocument("intl", draft, List.of(chunk));

        StoredDocument stored = documents.document("intl", "dóc/ü-🚀").orElseThrow();
        assertThat(stored.title()).isEqualTo(draft.title());
        assertThat(stored.content()).isEqualTo(content);
        assertThat(stored.tags()).isEqualTo(draft.tags());
        assertThat(stored.metadata()).isEqualTo(draft.metadata());
        assertThat(store.namespace("intl")).map(Namespace::description).contains("Ünïcödé ✓");
        StoredChunk storedChunk = documents.chunks("intl", "dóc/ü-🚀").get(0);
        assertThat(storedChunk.id()).isEqualTo("dóc/ü-🚀#0");
        assertThat(storedChunk.text()).isEqualTo(content);
        assertThat(storedChunk.headingPath()).containsExactly("Überschrift", "小見出し");
        assertThat(documents.documents("intl", PageRequest.first(5), "ärger").items()).hasSize(1);
        assertThat(documents.documents("intl", PageRequest.first(5), "東京").items()).hasSize(1);
        assertThat(documents.documents("intl", PageRequest.first(5), "berlin").items()).isEmpty();
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
                                        documents.replaceDocument(
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

        StoredDocument last = documents.document("busy", "hot").orElseThrow();
        assertThat(last.version()).isEqualTo(threads * rounds);
        assertThat(documents.chunks("busy", "hot"))
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
        documents.replaceDocument("live", doc("doc", "v"), chunks(4, true));
        int rounds = 15;
        try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
            Future<?> writer =
                    pool.submit(
                            () -> {
                                for (int r = 0; r < rounds; r++) {
                                    documents.replaceDocument(
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
                                        sizes.add(documents.chunks("live", "doc").size());
                                        embeddedChunkIds("live");
                                    }
                                    return sizes;
                                }));
            }
            writer.get();
            for (Future<Set<Integer>> reader : readers) {
                assertThat(reader.get()).isSubsetOf(2, 4);
            }
        }
        assertThat(documents.document("live", "doc"))
                .map(StoredDocument::version)
                .contains(rounds + 1L);
    }

    // ---- the change sequence -----------------------------------------------------------

    @Test
    void changeSequenceRecordsEveryWriteInOrder() {
        long start = store.lastChangeSeq();
        store.createNamespace("log", "");
        documents.replaceDocument("log", doc("d1", "One"), chunks(1, true));
        documents.replaceDocument("log", doc("d1", "One v2"), chunks(1, true));
        documents.replaceDocument("log", doc("d2", "Two"), List.of());
        documents.deleteDocument("log", "d1");
        documents.deleteDocument("log", "d1"); // no change: nothing deleted

        List<Change> changes = store.changesSince(start, 100);

        assertThat(changes)
                .extracting(c -> c.kind() + " " + c.op() + " " + c.entityId())
                .containsExactly(
                        "NAMESPACE UPSERT log",
                        "DOCUMENT UPSERT d1",
                        "DOCUMENT UPSERT d1",
                        "DOCUMENT UPSERT d2",
                        "DOCUMENT DELETE d1");
    }

    @Test
    void deletingANamespaceLeavesOneNamespaceDeleteInTheSequence() {
        long start = store.lastChangeSeq();
        store.createNamespace("tmp", "");
        documents.replaceDocument("tmp", doc("d1", "T"), List.of());

        store.deleteNamespace("tmp");

        assertThat(store.changesSince(start, 100))
                .extracting(c -> c.kind() + " " + c.op() + " " + c.entityId())
                .containsExactly("NAMESPACE DELETE tmp");
    }

    // ---- embeddings ----------------------------------------------------------------------

    @Test
    void forEachEmbeddingStreamsEveryEmbeddedChunkOfTheNamespace() {
        Map<String, float[]> vectors =
                TestDocuments.fillRandom(store, documents, "vec", 3, 4, new Random(SEED));
        documents.replaceDocument("vec", doc("plain", "P"), chunks(2, false));
        TestDocuments.fillRandom(store, documents, "other", 1, 3, new Random(SEED + 5));

        Map<String, float[]> streamed = new LinkedHashMap<>();
        documents.forEachEmbedding("vec", streamed::put);

        assertThat(streamed.keySet()).containsExactlyInAnyOrderElementsOf(vectors.keySet());
        streamed.forEach((id, v) -> assertThat(v).as(id).containsExactly(vectors.get(id)));
    }
}
