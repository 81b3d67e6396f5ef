package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.embeddings.CountingEmbeddingModel;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import dev.cairn.retrieval.ingest.DocumentParser;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.retrieval.store.DocumentFormat;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The knowledge base's behaviour, run against each store backend. */
abstract class KnowledgeBaseContractTest {

    @TempDir Path indexRoot;
    Store store;
    KnowledgeBase kb;
    String ns;

    /** A fresh store for one test. */
    abstract Store openStore();

    @BeforeEach
    void open() {
        store = openStore();
        ns = "kb-" + UUID.randomUUID().toString().substring(0, 8);
        store.createNamespace(ns, "test");
        kb =
                KnowledgeBase.open(
                        store,
                        TestModel.get(),
                        indexRoot.resolve("lucene"),
                        RetrievalConfig.defaults());
    }

    @AfterEach
    void close() {
        if (kb != null) {
            kb.close();
        }
        if (store != null) { // null when the backend skipped the test
            store.close();
        }
    }

    static ParsedDocument markdown(String fileName, String text) {
        return DocumentParser.parseMarkdown(text, fileName);
    }

    static final String FAILOVER =
            """
            ---
            id: ledger-promote
            title: Promote the ledger replica
            authority: authoritative
            tags: [database, ha]
            ---
            # Promote the ledger replica

            Run pg_ctl promote on the standby host, then point the ledger DNS record at it.

            ## Verify

            Replication lag must read zero before the promotion starts.
            """;

    static final String CACHE =
            """
            ---
            id: cache-flush
            title: Flush the session cache
            authority: supporting
            tags: [cache]
            ---
            # Flush the session cache

            Connect to the redis cluster and run FLUSHDB on the sessions database during low traffic.
            """;

    void ingestBoth() {
        kb.ingest(ns, markdown("ledger-promote.md", FAILOVER));
        kb.ingest(ns, markdown("cache-flush.md", CACHE));
    }

    @Test
    void retrieveRanksTheMatchingRunbookFirstInBothSignals() {
        ingestBoth();
        RetrieveRequest request = RetrieveRequest.of("promote the standby database replica");
        RetrieveResult result = kb.retrieve(ns, request.withFusion(FusionStrategy.RRF));
        assertThat(result.hits()).isNotEmpty();
        RetrievedHit top = result.hits().getFirst();
        assertThat(top.documentId()).isEqualTo("ledger-promote");
        assertThat(top.authority()).isEqualTo(Authority.AUTHORITATIVE);
        assertThat(top.ranks()).containsEntry(Signal.LEXICAL, 1).containsEntry(Signal.DENSE, 1);
        assertThat(top.score())
                .isEqualTo(1.0 / 61 + 1.0 / 61, org.assertj.core.data.Offset.offset(1e-12));
        // the default, adaptive fusion: BM25's weight follows its first-to-second gap
        RetrieveResult adaptive = kb.retrieve(ns, request);
        RetrievedHit adaptiveTop = adaptive.hits().getFirst();
        assertThat(adaptiveTop.documentId()).isEqualTo("ledger-promote");
        List<Double> lexicalScores =
                adaptive.candidates().stream()
                        .map(c -> c.scores().get(Signal.LEXICAL))
                        .filter(java.util.Objects::nonNull)
                        .sorted(java.util.Comparator.reverseOrder())
                        .toList();
        assertThat(lexicalScores).hasSizeGreaterThanOrEqualTo(2);
        double gap = (lexicalScores.get(0) - lexicalScores.get(1)) / lexicalScores.get(0);
        double lexicalWeight = Math.min(2.5, Math.max(0.25, gap / 0.32));
        assertThat(lexicalWeight).isNotEqualTo(1.0);
        assertThat(adaptiveTop.score())
                .isEqualTo(
                        lexicalWeight / 61 + 1.0 / 61, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(result.grounding()).isBetween(0.0, 1.0);
        assertThat(result.signals())
                .filteredOn(s -> s.signal() != Signal.GRAPH)
                .allSatisfy(s -> assertThat(s.status()).isEqualTo(SignalOutcome.Status.OK));
    }

    @Test
    void reingestReplacesTheOldVersionInEveryIndex() {
        kb.ingest(ns, markdown("ledger-promote.md", FAILOVER));
        IngestResult second =
                kb.ingest(
                        ns,
                        markdown(
                                "ledger-promote.md",
                                FAILOVER.replace("pg_ctl promote", "the failover controller")
                                        .replace(
                                                "Replication lag must read zero before the promotion starts.",
                                                "Wait for the controller to report healthy.")));
        assertThat(second.version()).isEqualTo(2);
        RetrieveResult lexicalOnly =
                kb.retrieve(
                        ns,
                        RetrieveRequest.of("pg_ctl replication lag")
                                .withWeights(SignalWeights.of(1, 0, 0)));
        assertThat(lexicalOnly.hits())
                .allSatisfy(
                        h -> assertThat(h.text()).doesNotContain("pg_ctl").doesNotContain("lag"));
        RetrieveResult dense =
                kb.retrieve(
                        ns,
                        RetrieveRequest.of("failover controller")
                                .withWeights(SignalWeights.of(0, 1, 0)));
        assertThat(dense.hits())
                .extracting(RetrievedHit::text)
                .anyMatch(t -> t.contains("failover controller"));
        assertThat(kb.documents().chunks(ns, "ledger-promote"))
                .allSatisfy(c -> assertThat(c.text()).doesNotContain("pg_ctl"));
    }

    @Test
    void deleteRemovesTheDocumentFromEveryIndex() {
        ingestBoth();
        assertThat(kb.delete(ns, "cache-flush")).isTrue();
        RetrieveResult result = kb.retrieve(ns, RetrieveRequest.of("flush redis sessions"));
        assertThat(result.hits())
                .extracting(RetrievedHit::documentId)
                .doesNotContain("cache-flush");
        assertThat(kb.delete(ns, "cache-flush")).isFalse();
    }

    @Test
    void deletedLuceneDirectoryIsRebuiltFromTheStoreOnOpen() throws IOException {
        ingestBoth();
        kb.close();
        kb = null;
        try (Stream<Path> files = Files.walk(indexRoot.resolve("lucene"))) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        kb =
                KnowledgeBase.open(
                        store,
                        TestModel.get(),
                        indexRoot.resolve("lucene"),
                        RetrievalConfig.defaults());
        RetrieveResult lexicalOnly =
                kb.retrieve(
                        ns,
                        RetrieveRequest.of("FLUSHDB sessions")
                                .withWeights(SignalWeights.of(1, 0, 0)));
        assertThat(lexicalOnly.hits())
                .extracting(RetrievedHit::documentId)
                .first()
                .isEqualTo("cache-flush");
    }

    @Test
    void zeroWeightSkipsTheSignal() {
        ingestBoth();
        RetrieveResult result =
                kb.retrieve(
                        ns,
                        RetrieveRequest.of("flush redis").withWeights(SignalWeights.of(0, 1, 0)));
        assertThat(result.hits())
                .allSatisfy(h -> assertThat(h.ranks()).containsOnlyKeys(Signal.DENSE));
        assertThat(result.signals())
                .filteredOn(s -> s.signal() == Signal.LEXICAL)
                .singleElement()
                .satisfies(s -> assertThat(s.status()).isEqualTo(SignalOutcome.Status.SKIPPED));
    }

    @Test
    void lateSignalIsMarkedAndTheOthersStillAnswer() {
        ingestBoth();
        kb.close();
        kb =
                KnowledgeBase.open(
                        store,
                        TestModel.get(),
                        indexRoot.resolve("lucene"),
                        RetrievalConfig.defaults()
                                .withTimeouts(
                                        Duration.ofNanos(1),
                                        Duration.ofSeconds(30),
                                        Duration.ofSeconds(1)));
        RetrieveResult result =
                kb.retrieve(ns, RetrieveRequest.of("flush the redis session cache"));
        assertThat(result.signals())
                .filteredOn(s -> s.signal() == Signal.LEXICAL)
                .singleElement()
                .satisfies(s -> assertThat(s.status()).isEqualTo(SignalOutcome.Status.TIMEOUT));
        assertThat(result.partial()).isTrue();
        assertThat(result.hits())
                .isNotEmpty()
                .allSatisfy(h -> assertThat(h.ranks()).containsOnlyKeys(Signal.DENSE));
    }

    @Test
    void filtersKeepOnlyMatchingDocumentsAndMarkTheRest() {
        ingestBoth();
        RetrieveRequest request =
                new RetrieveRequest(
                        "flush the cache or promote the replica",
                        10,
                        100,
                        SignalWeights.DEFAULTS,
                        60,
                        FusionStrategy.RRF,
                        new RetrieveFilters(List.of(), List.of(), Set.of(Authority.AUTHORITATIVE)),
                        false);
        RetrieveResult result = kb.retrieve(ns, request);
        assertThat(result.hits())
                .isNotEmpty()
                .allSatisfy(h -> assertThat(h.authority()).isEqualTo(Authority.AUTHORITATIVE));
        assertThat(result.candidates())
                .anySatisfy(
                        c -> {
                            assertThat(c.documentId()).isEqualTo("cache-flush");
                            assertThat(c.filteredOut()).isTrue();
                            assertThat(c.selected()).isFalse();
                        });
    }

    @Test
    void metadataFiltersKeepDocumentsWhoseValueIsListedForEveryKey() {
        kb.ingest(
                ns,
                markdown(
                        "a.md",
                        "---\nid: a\nteam: payments\nyear: 2024\n---\nRotate the payments keys."));
        kb.ingest(
                ns,
                markdown(
                        "b.md",
                        "---\nid: b\nteam: payments\nyear: 2023\n---\nRotate the payments certificates."));
        kb.ingest(
                ns,
                markdown(
                        "c.md",
                        "---\nid: c\nteam: search\nyear: 2024\n---\nRotate the search keys."));
        kb.ingest(ns, markdown("d.md", "---\nid: d\n---\nRotate the keys of nobody."));

        assertThat(documentsFound("rotate the keys", Map.of("team", List.of("payments"))))
                .containsExactlyInAnyOrder("a", "b");
        assertThat(documentsFound("rotate the keys", Map.of("year", List.of("2024", "2023"))))
                .as("one of the values")
                .containsExactlyInAnyOrder("a", "b", "c");
        assertThat(
                        documentsFound(
                                "rotate the keys",
                                Map.of("team", List.of("payments"), "year", List.of("2024"))))
                .as("every key")
                .containsExactly("a");
        assertThat(documentsFound("rotate the keys", Map.of("team", List.of("Payments"))))
                .as("the stored text, compared exactly")
                .isEmpty();
        assertThat(documentsFound("rotate the keys", Map.of()))
                .containsExactlyInAnyOrder("a", "b", "c", "d");
        assertThatThrownBy(
                        () ->
                                new RetrieveFilters(
                                        List.of(), List.of(), Set.of(), Map.of("team", List.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metadata filter 'team' lists no value, must list at least one");
    }

    private List<String> documentsFound(String query, Map<String, List<String>> metadata) {
        RetrieveResult result =
                kb.retrieve(
                        ns,
                        RetrieveRequest.of(query)
                                .withFilters(
                                        new RetrieveFilters(
                                                List.of(), List.of(), Set.of(), metadata)));
        return result.hits().stream().map(RetrievedHit::documentId).distinct().toList();
    }

    @Test
    void traceIsPersistedWithTheSelectedHitsText() {
        ingestBoth();
        RetrieveResult result = kb.retrieve(ns, RetrieveRequest.of("promote the replica"));
        StoredTrace trace = kb.trace(ns, result.traceId()).orElseThrow();
        assertThat(trace.query()).isEqualTo("promote the replica");
        assertThat(trace.plan()).isEqualTo(result.plan());
        assertThat(trace.selected())
                .extracting(StoredTrace.Entry::chunkId)
                .containsExactlyElementsOf(
                        result.hits().stream().map(RetrievedHit::chunkId).toList());
        assertThat(trace.selected().getFirst().text()).isEqualTo(result.hits().getFirst().text());
        assertThat(kb.trace("other-" + ns, result.traceId())).isEmpty();
    }

    @Test
    void storedTraceKeepsFilteredOutAndExplanationsAcrossARestart() {
        ingestBoth();
        RetrieveRequest request =
                new RetrieveRequest(
                        "flush the cache or promote the replica",
                        10,
                        100,
                        SignalWeights.DEFAULTS,
                        60,
                        FusionStrategy.RRF,
                        new RetrieveFilters(List.of(), List.of(), Set.of(Authority.AUTHORITATIVE)),
                        true);
        RetrieveResult result = kb.retrieve(ns, request);
        kb.close(); // waits for the trace's write, so the reopened one reads the store
        kb =
                KnowledgeBase.open(
                        store,
                        TestModel.get(),
                        indexRoot.resolve("lucene"),
                        RetrievalConfig.defaults());
        StoredTrace stored = kb.trace(ns, result.traceId()).orElseThrow();
        assertThat(stored.entries()).hasSameSizeAs(result.candidates());
        for (int i = 0; i < result.candidates().size(); i++) {
            TraceCandidate inline = result.candidates().get(i);
            StoredTrace.Entry entry = stored.entries().get(i);
            assertThat(entry.chunkId()).isEqualTo(inline.chunkId());
            assertThat(entry.filteredOut()).isEqualTo(inline.filteredOut());
            assertThat(entry.explanation()).isEqualTo(inline.explanation());
            assertThat(entry.graphPath()).isEqualTo(inline.graphPath());
        }
        assertThat(stored.entries()).anyMatch(StoredTrace.Entry::filteredOut);
        assertThat(stored.entries()).anyMatch(e -> !e.explanation().isEmpty());
    }

    @Test
    void unknownNamespaceIsNotFound() {
        assertThatThrownBy(() -> kb.retrieve("missing-ns", RetrieveRequest.of("anything")))
                .isInstanceOf(NoSuchElementException.class)
                .hasMessageContaining("missing-ns");
    }

    @Test
    void documentOverTheSizeLimitIsRejectedAndNothingIsWritten() {
        kb.close();
        kb =
                KnowledgeBase.open(
                        store,
                        TestModel.get(),
                        indexRoot.resolve("lucene"),
                        RetrievalConfig.defaults().withMaxDocumentBytes(100));
        assertThatThrownBy(
                        () -> kb.ingest(ns, markdown("big.md", "# Big\n\n" + "word ".repeat(100))))
                .isInstanceOf(PayloadTooLargeException.class)
                .hasMessageContaining("limit of 100");
        assertThat(kb.documents().document(ns, "big")).isEmpty();
    }

    /** Abstracts of one sentence each: one chunk per document. */
    static List<ParsedDocument> abstracts(int count) {
        List<ParsedDocument> documents = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            documents.add(
                    ParsedDocument.plain(
                            "abstract-" + i,
                            "Study " + i,
                            DocumentFormat.TEXT,
                            "Cohort "
                                    + i
                                    + " showed that marker "
                                    + (i * 7 % 101)
                                    + " predicts relapse in the treated group."));
        }
        return documents;
    }

    private KnowledgeBase reopen(EmbeddingModel model) {
        kb.close();
        kb =
                KnowledgeBase.open(
                        store, model, indexRoot.resolve("lucene"), RetrievalConfig.defaults());
        return kb;
    }

    @Test
    void anInterruptedBulkIngestResumesWithoutDuplicatesAndWithoutEmbeddingAgain() {
        CountingEmbeddingModel model = new CountingEmbeddingModel(TestModel.get());
        reopen(model);
        List<ParsedDocument> corpus = abstracts(300);
        List<String> heard = new ArrayList<>();
        // The run dies while reporting document 150: the second batch of 128 is committed, the
        // rest never reaches the store.
        assertThatThrownBy(
                        () ->
                                kb.ingestAll(
                                        ns,
                                        corpus,
                                        IngestMode.SKIP_UNCHANGED,
                                        r -> {
                                            heard.add(r.id());
                                            if (heard.size() == 150) {
                                                throw new IllegalStateException("killed");
                                            }
                                        }))
                .hasMessage("killed");
        int batch = KnowledgeIngest.BATCH_DOCUMENTS;
        assertThat(kb.documents().documents(ns, PageRequest.first(1), "").total())
                .isEqualTo(2L * batch);
        int embeddedBefore = model.embedded();
        assertThat(embeddedBefore).isBetween(2 * batch, 300);

        List<IngestResult> results = new ArrayList<>();
        kb.ingestAll(ns, corpus, IngestMode.SKIP_UNCHANGED, results::add);

        assertThat(model.embedded() - embeddedBefore)
                .as("only the documents not stored are embedded")
                .isEqualTo(300 - 2 * batch);
        assertThat(results).hasSize(300);
        assertThat(results.stream().filter(IngestResult::unchanged).count()).isEqualTo(2L * batch);
        assertThat(results).allSatisfy(r -> assertThat(r.version()).isEqualTo(1));
        assertThat(results).allSatisfy(r -> assertThat(r.chunks()).isEqualTo(1));
        assertThat(results.stream().map(IngestResult::id).toList())
                .containsExactlyElementsOf(corpus.stream().map(ParsedDocument::id).toList());
        assertThat(kb.documents().documents(ns, PageRequest.first(1), "").total()).isEqualTo(300);
        assertThat(kb.documents().chunkCount(ns)).isEqualTo(300);
        RetrieveResult hit =
                kb.retrieve(ns, RetrieveRequest.of("Cohort 299 marker relapse treated group"));
        assertThat(hit.hits().getFirst().documentId()).isEqualTo("abstract-299");
    }

    @Test
    void aChangedDocumentIsIngestedAgainAndAReplaceAlwaysWritesANewVersion() {
        CountingEmbeddingModel model = new CountingEmbeddingModel(TestModel.get());
        reopen(model);
        List<ParsedDocument> corpus = abstracts(3);
        kb.ingestAll(ns, corpus, IngestMode.SKIP_UNCHANGED, r -> {});
        int embeddedBefore = model.embedded();
        List<ParsedDocument> changed = new ArrayList<>(corpus);
        ParsedDocument first = corpus.getFirst();
        changed.set(
                0,
                ParsedDocument.plain(
                        first.id(), "Retracted: " + first.title(), first.format(), first.body()));
        List<IngestResult> results = new ArrayList<>();
        kb.ingestAll(ns, changed, IngestMode.SKIP_UNCHANGED, results::add);
        assertThat(results)
                .extracting(IngestResult::unchanged, IngestResult::version)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(false, 2L),
                        org.assertj.core.groups.Tuple.tuple(true, 1L),
                        org.assertj.core.groups.Tuple.tuple(true, 1L));
        assertThat(model.embedded() - embeddedBefore).isEqualTo(1);
        assertThat(kb.ingest(ns, changed.get(1)).version()).isEqualTo(2);
    }

    @Test
    void aDocumentThatFailsInABatchLeavesNoneOfItsBatchWritten() {
        List<ParsedDocument> corpus = new ArrayList<>(abstracts(5));
        // an entity of an unknown kind fails the batch after the first four are chunked
        corpus.add(
                markdown(
                        "bad-kind.md",
                        """
                        ---
                        id: bad-kind
                        entities:
                          - {name: ledger, kind: spaceship}
                        ---
                        # Bad kind

                        Text.
                        """));
        assertThatThrownBy(() -> kb.ingestAll(ns, corpus, IngestMode.REPLACE, r -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spaceship");
        assertThat(kb.documents().documents(ns, PageRequest.first(1), "").total()).isZero();
        assertThat(kb.documents().chunkCount(ns)).isZero();
    }

    @Test
    void aSingleIngestSkipsAnUnchangedDocumentOnlyWhenAskedAndEmbedsNothingForIt() {
        CountingEmbeddingModel model = new CountingEmbeddingModel(TestModel.get());
        reopen(model);
        ParsedDocument doc = abstracts(1).getFirst();
        IngestResult first = kb.ingest(ns, doc, IngestMode.SKIP_UNCHANGED);
        int embeddedBefore = model.embedded();

        IngestResult again = kb.ingest(ns, doc, IngestMode.SKIP_UNCHANGED);

        assertThat(again.unchanged()).isTrue();
        assertThat(again.version()).isEqualTo(first.version()).isEqualTo(1);
        assertThat(again.chunks()).isEqualTo(first.chunks());
        assertThat(model.embedded()).as("nothing embedded for it").isEqualTo(embeddedBefore);
        IngestResult replaced = kb.ingest(ns, doc);
        assertThat(replaced.unchanged()).isFalse();
        assertThat(replaced.version()).isEqualTo(2);
    }

    /**
     * A document ingested before issue 43 by bfloat16 or int8 passes has the ingest key its
     * precision's model id made ({@code bge-small-en-v1.5-bf16}); the model's vectors are the same
     * space, so ingesting it again now skips it and embeds nothing.
     */
    @Test
    void aDocumentIngestedUnderAFormerSuffixedModelIdIsUnchangedAndNotEmbeddedAgain() {
        ParsedDocument doc = abstracts(1).getFirst();
        for (String former : EmbeddingModels.formerIds(TestModel.get().id())) {
            reopen(new CountingEmbeddingModel(TestModel.get(), former));
            kb.ingest(ns, doc);
            CountingEmbeddingModel model = new CountingEmbeddingModel(TestModel.get());
            reopen(model);

            IngestResult again = kb.ingest(ns, doc, IngestMode.SKIP_UNCHANGED);

            assertThat(again.unchanged()).as(former).isTrue();
            assertThat(model.embedded()).as(former).isZero();
        }
        assertThat(EmbeddingModels.formerIds(TestModel.get().id())).hasSize(2);
    }

    @Test
    void checkRefusesWhatAnIngestWouldRefuseAndNothingElse() {
        kb.check(abstracts(1).getFirst());
        assertThatThrownBy(
                        () ->
                                kb.check(
                                        markdown(
                                                "index.md",
                                                "---\nid: section\ntitle: Section\n---\n")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("document 'section' has no content");
        assertThatThrownBy(
                        () ->
                                kb.check(
                                        markdown(
                                                "bad.md",
                                                "---\nid: bad\nentities:\n  - {name: ledger,"
                                                        + " kind: spaceship}\n---\n# Bad\n\nText.\n")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("spaceship");
        assertThat(kb.documents().documents(ns, PageRequest.first(1), "").total()).isZero();
    }
}
