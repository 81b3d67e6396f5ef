package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.graph.EntityGraph;
import dev.cairn.graph.RelationType;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import dev.cairn.retrieval.ingest.DocumentParser;
import dev.cairn.retrieval.ingest.ParsedDocument;
import dev.cairn.store.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graph as the third retrieval signal, over the 33-runbook fixture of the graph module ({@code
 * graph/src/test/resources/runbooks}) with the real embedding model and an embedded store.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GraphRetrievalTest {

    static final Path RUNBOOKS = Path.of("..", "graph", "src", "test", "resources", "runbooks");
    static final String NS = "shop";
    static final String FAIL_OVER = "how do I fail over the primary database";
    static final SignalWeights HYBRID_GRAPH = SignalWeights.DEFAULTS;
    static final SignalWeights HYBRID_ONLY = SignalWeights.of(1, 1, 0);
    static final Duration PATIENT = Duration.ofSeconds(60);

    @TempDir static Path dir;
    Store store;
    KnowledgeGraph graph;
    KnowledgeBase kb;

    @BeforeAll
    void ingestFixture() throws IOException {
        store = Store.embedded(dir.resolve("data"));
        store.createNamespace(NS, "fictional shop runbooks");
        graph = KnowledgeGraph.open(store);
        kb =
                KnowledgeBase.open(
                        store,
                        TestModel.get(),
                        dir.resolve("lucene"),
                        graph,
                        RetrievalConfig.defaults().withTimeouts(PATIENT, PATIENT, PATIENT));
        kb.ingestAll(NS, runbooks(), IngestMode.REPLACE, r -> {});
    }

    @AfterAll
    void close() {
        kb.close();
        store.close();
    }

    static List<ParsedDocument> runbooks() throws IOException {
        List<ParsedDocument> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(RUNBOOKS)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                out.add(
                        DocumentParser.parseMarkdown(
                                Files.readString(f), f.getFileName().toString()));
            }
        }
        assertThat(out).hasSizeGreaterThanOrEqualTo(30);
        return out;
    }

    RetrieveResult retrieve(String query, SignalWeights weights) {
        return kb.retrieve(NS, RetrieveRequest.of(query).withWeights(weights));
    }

    static List<String> topDocuments(RetrieveResult result, int n) {
        return result.hits().stream().map(RetrievedHit::documentId).distinct().limit(n).toList();
    }

    static String describe(RetrieveResult result) {
        return result.candidates().stream()
                .limit(12)
                .map(c -> c.chunkId() + " " + c.ranks() + String.format(" %.4f", c.fused()))
                .toList()
                .toString();
    }

    static List<String> candidateDocuments(RetrieveResult result) {
        return result.candidates().stream().map(TraceCandidate::documentId).distinct().toList();
    }

    /**
     * The governing runbook shares no content word with the question. With the default fusion
     * (weighted RRF) and default weights the graph lifts it into the top 3 (its best chunk has
     * dense rank 1 and, tied with the other runbook that governs the database, graph rank 1); bm25
     * + dense alone leave it out of the top 3 under either fusion.
     */
    @Test
    void governingRunbookIsInTopThreeWithTheGraphAndNotWithoutIt() {
        RetrieveResult withGraph = kb.retrieve(NS, RetrieveRequest.of(FAIL_OVER));
        RetrieveResult withoutGraph = retrieve(FAIL_OVER, HYBRID_ONLY);
        RetrieveResult convexWithoutGraph =
                kb.retrieve(
                        NS,
                        RetrieveRequest.of(FAIL_OVER)
                                .withFusion(FusionStrategy.CONVEX)
                                .withWeights(HYBRID_ONLY));

        assertThat(topDocuments(withGraph, 3))
                .as("bm25 + dense + graph: %s", describe(withGraph))
                .contains("ledger-db-promote-replica");
        assertThat(topDocuments(withoutGraph, 3))
                .as("bm25 + dense alone: %s", describe(withoutGraph))
                .doesNotContain("ledger-db-promote-replica");
        assertThat(topDocuments(convexWithoutGraph, 3))
                .as("bm25 + dense alone, convex: %s", describe(convexWithoutGraph))
                .doesNotContain("ledger-db-promote-replica");
    }

    @Test
    void answerListsLinkedEntitiesTraversedRelationsAndEachGraphHitsPath() {
        RetrieveResult result = retrieve(FAIL_OVER, HYBRID_GRAPH);

        assertThat(result.graph().entities())
                .extracting(GraphContext.LinkedEntity::id)
                .containsExactly("ledger-db");
        assertThat(result.graph().relations())
                .contains(
                        new GraphContext.TraversedRelation(
                                "document:ledger-db-promote-replica",
                                "entity:ledger-db",
                                "governs",
                                1.0));
        TraceCandidate promote =
                result.candidates().stream()
                        .filter(c -> c.documentId().equals("ledger-db-promote-replica"))
                        .findFirst()
                        .orElseThrow();
        assertThat(promote.ranks()).containsKey(Signal.GRAPH);
        assertThat(promote.graphPath())
                .extracting(GraphContext.TraversedRelation::type)
                .startsWith("governs");
        assertThat(result.candidates())
                .filteredOn(c -> !c.ranks().containsKey(Signal.GRAPH))
                .allSatisfy(c -> assertThat(c.graphPath()).isEmpty());
    }

    @Test
    void withoutTheGraphSignalTheAnswerHasNoGraphContext() {
        RetrieveResult result = retrieve(FAIL_OVER, HYBRID_ONLY);

        assertThat(result.graph()).isEqualTo(GraphContext.EMPTY);
        assertThat(result.candidates()).allSatisfy(c -> assertThat(c.graphPath()).isEmpty());
    }

    @Test
    void contradictsLinkNeverRaisesAHit() {
        RetrieveResult result = retrieve("flush the redis cart-cache", HYBRID_GRAPH);
        assertThat(result.candidates())
                .filteredOn(c -> c.documentId().equals("cart-cache-never-flush"))
                .allSatisfy(c -> assertThat(c.ranks()).doesNotContainKey(Signal.GRAPH));

        // Property: a new contradicts edge from the linked entity to another runbook changes
        // nothing in the graph ranking.
        List<String> before = graphRanking("flush the redis cart-cache");
        graph.addRelation(NS, "cart-cache", "payments-queue-drain", RelationType.CONTRADICTS, 1.0);
        kb.catchUp();
        assertThat(graph.graph().entity(NS, "cart-cache").orElseThrow().relations())
                .anySatisfy(r -> assertThat(r.type()).isEqualTo(RelationType.CONTRADICTS));
        assertThat(graphRanking("flush the redis cart-cache")).isEqualTo(before);
    }

    List<String> graphRanking(String query) {
        return graph.rank(NS, query, 50).chunks().stream()
                .map(s -> s.id() + "=" + s.score())
                .toList();
    }

    @Test
    void supersededRunbookRanksBelowItsSuccessorInTheHybridAnswer() {
        for (String query :
                List.of(
                        "rebuild the elasticsearch index",
                        "es cluster products missing",
                        "catalog-api slow after reindex",
                        "Rebuild the product index (2019)")) {
            for (FusionStrategy fusion : FusionStrategy.values()) {
                List<String> docs =
                        candidateDocuments(
                                kb.retrieve(
                                        NS,
                                        RetrieveRequest.of(query)
                                                .withWeights(HYBRID_GRAPH)
                                                .withFusion(fusion)));
                assertThat(docs).as(query).contains("search-reindex", "search-reindex-2019");
                assertThat(docs.indexOf("search-reindex"))
                        .as(fusion + " " + query + ": " + docs)
                        .isLessThan(docs.indexOf("search-reindex-2019"));
            }
        }
    }

    @Test
    void supersessionRuleMovesASupersededChunkThatFusionRankedAboveItsSuccessor() {
        // The title of the 2019 runbook: bm25 and dense both put it first, so under plain RRF
        // fusion ranks both of its chunks above its successor (adaptive fusion, which gives
        // BM25's narrow lead less say, already ranks its second chunk below)
        RetrieveResult result =
                kb.retrieve(
                        NS,
                        RetrieveRequest.of("Rebuild the product index (2019)")
                                .withWeights(HYBRID_ONLY)
                                .withFusion(FusionStrategy.RRF));

        List<String> docs = candidateDocuments(result);
        assertThat(docs.indexOf("search-reindex"))
                .as("%s", docs)
                .isLessThan(docs.indexOf("search-reindex-2019"));
        assertThat(result.candidates())
                .filteredOn(c -> c.documentId().equals("search-reindex-2019"))
                .allSatisfy(
                        c -> assertThat(c.explanation()).contains("superseded by search-reindex"));
    }

    @Test
    void graphRebuiltFromTheStoreRanksLikeTheOneKeptCurrent() {
        KnowledgeGraph rebuilt = KnowledgeGraph.open(store);

        EntityGraph.Stats live = graph.graph().stats(NS);
        EntityGraph.Stats fresh = rebuilt.graph().stats(NS);
        assertThat(fresh.documents()).isEqualTo(live.documents());
        assertThat(fresh.chunks()).isEqualTo(live.chunks());
        // The rebuild declares every document's entities before reading any text, so it may find
        // mentions that incremental ingest, reading documents in arrival order, could not yet.
        assertThat(fresh.edges()).isGreaterThanOrEqualTo(live.edges());
        assertThat(rebuilt.rank(NS, FAIL_OVER, 20).chunks().subList(0, 3))
                .isEqualTo(graph.rank(NS, FAIL_OVER, 20).chunks().subList(0, 3));
    }
}
