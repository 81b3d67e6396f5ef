package dev.cairn.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The graph signal on the runbook fixture, with both proximity strategies. */
class GraphSignalRunbookTest {

    private static final String NS = "shop";
    private static final String FAIL_OVER = "how do I fail over the primary database";

    private static Runbooks runbooks;
    private static EntityGraph graph;

    @BeforeAll
    static void ingest() {
        runbooks = Runbooks.load();
        graph = EntityGraph.inMemory();
        runbooks.ingestInto(graph, NS);
    }

    static List<String> documents(GraphResult result) {
        return result.hits().stream().map(GraphHit::documentId).distinct().toList();
    }

    private static GraphSignal signal(Proximity strategy) {
        return GraphSignal.create(graph, ProximityConfig.defaults().withStrategy(strategy));
    }

    @Test
    void governingRunbookRanksInTopThreeWithoutSharingAWordWithTheQuestion() {
        Proximity strategy = ProximityConfig.defaults().strategy();
        String file =
                runbooks.get("ledger-db-promote-replica").body()
                        + runbooks.get("ledger-db-promote-replica").title();
        assertThat(Pattern.compile("(?i)\\b(fail|over|primary|database)\\b").matcher(file).find())
                .as("fixture shares a word with the question")
                .isFalse();

        GraphResult result = signal(strategy).rank(NS, FAIL_OVER, 10);

        assertThat(result.entities()).extracting(LinkedEntity::id).containsExactly("ledger-db");
        assertThat(documents(result).subList(0, 3)).contains("ledger-db-promote-replica");
        GraphHit hit =
                result.hits().stream()
                        .filter(h -> h.documentId().equals("ledger-db-promote-replica"))
                        .findFirst()
                        .orElseThrow();
        assertThat(hit.path()).extracting(GraphRelation::type).startsWith(RelationType.GOVERNS);
        assertThat(result.relations())
                .contains(
                        new GraphRelation(
                                NodeRef.document("ledger-db-promote-replica"),
                                new NodeRef(NodeKind.ENTITY, "ledger-db"),
                                RelationType.GOVERNS,
                                1.0));
    }

    @ParameterizedTest
    @EnumSource(Proximity.class)
    void supersededRunbookRanksBelowItsSuccessor(Proximity strategy) {
        for (String query :
                List.of(
                        "rebuild the elasticsearch index",
                        "es cluster products missing",
                        "catalog-api slow after reindex")) {
            List<String> docs = documents(signal(strategy).rank(NS, query, 50));
            assertThat(docs).as(query).contains("search-reindex", "search-reindex-2019");
            assertThat(docs.indexOf("search-reindex"))
                    .as(query + ": " + docs)
                    .isLessThan(docs.indexOf("search-reindex-2019"));
        }
    }

    @ParameterizedTest
    @EnumSource(Proximity.class)
    void contradictsLinkNeverRaisesAHit(Proximity strategy) {
        GraphResult result = signal(strategy).rank(NS, "flush the redis cart-cache", 50);
        assertThat(result.hits()).isNotEmpty();
        assertThat(documents(result)).doesNotContain("cart-cache-never-flush");

        // Property: the same graph without the contradicts edges ranks identically.
        EntityGraph without = EntityGraph.inMemory();
        for (Runbooks.Runbook r : runbooks.all()) {
            Map<RelationType, List<String>> kept =
                    r.relations().entrySet().stream()
                            .filter(e -> e.getKey() != RelationType.CONTRADICTS)
                            .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            without.ingest(NS, new GraphDocument(r.id(), r.entities(), r.chunks(), kept));
        }
        GraphSignal other =
                GraphSignal.create(without, ProximityConfig.defaults().withStrategy(strategy));
        for (String query :
                List.of("flush the redis cart-cache", FAIL_OVER, "session cache keys")) {
            assertThat(signal(strategy).rank(NS, query, 50).hits())
                    .extracting(GraphHit::chunkId, GraphHit::score)
                    .as(query)
                    .containsExactlyElementsOf(
                            other.rank(NS, query, 50).hits().stream()
                                    .map(
                                            h ->
                                                    org.assertj.core.api.Assertions.tuple(
                                                            h.chunkId(), h.score()))
                                    .toList());
        }
    }

    @ParameterizedTest
    @EnumSource(Proximity.class)
    void hitsAreOrderedByScoreThenChunkIdAndExplainTheirPath(Proximity strategy) {
        GraphResult result = signal(strategy).rank(NS, "payments-queue is backing up", 20);

        assertThat(result.hits()).isNotEmpty();
        for (int i = 0; i < result.hits().size(); i++) {
            GraphHit hit = result.hits().get(i);
            assertThat(hit.rank()).isEqualTo(i + 1);
            assertThat(hit.path()).hasSize(hit.hops());
            assertThat(hit.path().get(hit.path().size() - 1).from())
                    .isEqualTo(NodeRef.chunk(hit.chunkId()));
            if (i > 0) {
                GraphHit before = result.hits().get(i - 1);
                assertThat(before.score()).isGreaterThanOrEqualTo(hit.score());
                if (before.score() == hit.score()) {
                    assertThat(before.chunkId()).isLessThan(hit.chunkId());
                }
            }
        }
        if (strategy == ProximityConfig.defaults().strategy()) {
            assertThat(result.hits().get(0).documentId()).isEqualTo("payments-queue-drain");
        }
    }

    @ParameterizedTest
    @EnumSource(Proximity.class)
    void queryNamingNoKnownEntityHasNoHits(Proximity strategy) {
        GraphResult result = signal(strategy).rank(NS, "what is the weather like", 10);
        assertThat(result.hits()).isEmpty();
        assertThat(result.entities()).isEmpty();
    }
}
