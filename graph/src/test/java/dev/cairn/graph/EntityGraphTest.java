package dev.cairn.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EntityGraphTest {

    private static final String NS = "shop";

    private static GraphDocument doc(
            String id, String text, Map<RelationType, List<String>> relations) {
        return new GraphDocument(
                id, List.of(), List.of(new GraphDocument.Chunk(id + "#0", text)), relations);
    }

    @Test
    void upsertReplacesTheDocumentsPreviousChunksAndRelations() {
        EntityGraph graph = EntityGraph.inMemory();
        graph.ingest(
                NS,
                doc(
                        "a",
                        "checkout-api talks to ledger-db.",
                        Map.of(RelationType.GOVERNS, List.of("checkout-api"))));
        graph.ingest(
                NS,
                doc(
                        "a",
                        "payments-api only.",
                        Map.of(RelationType.GOVERNS, List.of("payments-api"))));

        assertThat(graph.entity(NS, "checkout-api")).isEmpty();
        assertThat(graph.entity(NS, "ledger-db")).isEmpty();
        assertThat(graph.entity(NS, "payments-api").orElseThrow().relations())
                .containsExactly(
                        new GraphRelation(
                                NodeRef.document("a"),
                                new NodeRef(NodeKind.ENTITY, "payments-api"),
                                RelationType.GOVERNS,
                                1.0));
        assertThat(graph.stats(NS)).isEqualTo(new EntityGraph.Stats(1, 1, 1, 3));
    }

    @Test
    void removeDocumentTakesBackItsEdgesAndOrphanEntities() {
        EntityGraph graph = EntityGraph.inMemory();
        graph.ingest(NS, doc("a", "checkout-api uses ledger-db.", Map.of()));
        graph.ingest(NS, doc("b", "ledger-db backups.", Map.of()));

        assertThat(graph.removeDocument(NS, "a")).isTrue();
        assertThat(graph.removeDocument(NS, "a")).isFalse();

        assertThat(graph.entity(NS, "checkout-api")).isEmpty();
        assertThat(graph.entity(NS, "ledger-db").orElseThrow().mentionedBy()).isEqualTo(1);
        assertThat(graph.stats(NS)).isEqualTo(new EntityGraph.Stats(1, 1, 1, 2));
    }

    @Test
    void frontMatterValueNamingALaterDocumentBecomesThatDocument() {
        EntityGraph graph = EntityGraph.inMemory();
        graph.ingest(
                NS,
                doc(
                        "reindex",
                        "New way.",
                        Map.of(RelationType.SUPERSEDES, List.of("reindex-2019"))));
        graph.ingest(NS, doc("reindex-2019", "Old way.", Map.of()));

        assertThat(graph.searchEntities(NS, "reindex", 10)).isEmpty();
        assertThat(graph.stats(NS).documents()).isEqualTo(2);
        GraphResult result = GraphSignal.create(graph).rank(NS, "nothing known here", 5);
        assertThat(result.hits()).isEmpty();
    }

    @Test
    void declaringAnAliasMergesAnEntityThatWasOnlyExtracted() {
        EntityGraph graph = EntityGraph.inMemory();
        graph.ingest(NS, doc("a", "Restart `postgres` first.", Map.of()));
        assertThat(graph.entity(NS, "postgres")).isPresent();

        graph.ingest(
                NS,
                new GraphDocument(
                        "b",
                        List.of(
                                new EntityDeclaration(
                                        "ledger-db", EntityKind.DATABASE, List.of("postgres"))),
                        List.of(new GraphDocument.Chunk("b#0", "ledger-db notes.")),
                        Map.of()));

        EntityDetail ledger = graph.entity(NS, "postgres").orElseThrow();
        assertThat(ledger.entity().id()).isEqualTo("ledger-db");
        assertThat(ledger.mentionedBy()).isEqualTo(2);
    }

    @Test
    void searchEntitiesMatchesNamesAndAliasesExactFirstThenPrefixThenContains() {
        EntityGraph graph = EntityGraph.inMemory();
        Runbooks.load().ingestInto(graph, NS);

        assertThat(graph.searchEntities(NS, "PG", 3))
                .first()
                .satisfies(
                        e -> {
                            assertThat(e.id()).isEqualTo("ledger-db");
                            assertThat(e.kind()).isEqualTo(EntityKind.DATABASE);
                            assertThat(e.aliases()).contains("PostgreSQL", "postgres", "PG");
                            assertThat(e.degree()).isGreaterThan(10);
                        });
        assertThat(graph.searchEntities(NS, "payments", 10))
                .extracting(EntitySummary::id)
                .startsWith("payments-queue", "payments-api")
                .contains("payments-dlq");
        assertThat(graph.searchEntities(NS, "ELASTIC", 10))
                .extracting(EntitySummary::id)
                .containsExactly("search-cluster");
    }

    @Test
    void entityByIdOrAliasShowsItsRelations() {
        EntityGraph graph = EntityGraph.inMemory();
        Runbooks.load().ingestInto(graph, NS);

        EntityDetail detail = graph.entity(NS, "primary database").orElseThrow();

        assertThat(detail.entity().id()).isEqualTo("ledger-db");
        assertThat(detail.relations())
                .extracting(r -> r.from().toString(), GraphRelation::type)
                .contains(
                        org.assertj.core.api.Assertions.tuple(
                                "document:ledger-db-promote-replica", RelationType.GOVERNS),
                        org.assertj.core.api.Assertions.tuple(
                                "entity:checkout-api", RelationType.DEPENDS_ON),
                        org.assertj.core.api.Assertions.tuple(
                                "entity:pgbouncer", RelationType.PART_OF));
        assertThat(detail.relations().get(0).weight()).isEqualTo(1.0);
    }

    @Test
    void documentShowsTheEntitiesItMentionsAndTheRelationsItBrought() {
        EntityGraph graph = EntityGraph.inMemory();
        graph.ingest(
                NS,
                doc(
                        "a",
                        "checkout-api talks to ledger-db.",
                        Map.of(RelationType.GOVERNS, List.of("checkout-api"))));
        graph.ingest(NS, doc("b", "ledger-db backups run nightly.", Map.of()));

        DocumentGraph a = graph.document(NS, "a").orElseThrow();

        assertThat(a.entities())
                .extracting(EntitySummary::id)
                .containsExactly("checkout-api", "ledger-db");
        assertThat(a.relations())
                .extracting(r -> r.from().toString(), GraphRelation::type, r -> r.to().toString())
                .containsExactly(
                        org.assertj.core.api.Assertions.tuple(
                                "document:a", RelationType.GOVERNS, "entity:checkout-api"));
        assertThat(graph.document(NS, "b").orElseThrow().relations()).isEmpty();
        assertThat(graph.document(NS, "missing")).isEmpty();
        assertThat(graph.document("other-namespace", "a")).isEmpty();

        graph.removeDocument(NS, "a");
        assertThat(graph.document(NS, "a")).isEmpty();
    }

    @Test
    void apiRelationsSurviveDocumentRemovalUntilRemoved() {
        EntityGraph graph = EntityGraph.inMemory();
        graph.ingest(NS, doc("a", "checkout-api and ledger-db.", Map.of()));
        Relation relation =
                Relation.of(
                        NodeRef.entity("checkout-api"),
                        RelationType.DEPENDS_ON,
                        NodeRef.entity("ledger-db"));

        graph.addRelation(NS, relation);
        graph.removeDocument(NS, "a");
        assertThat(graph.entity(NS, "ledger-db").orElseThrow().relations()).hasSize(1);

        assertThat(graph.removeRelation(NS, relation)).isTrue();
        assertThat(graph.entity(NS, "ledger-db")).isEmpty();
    }

    @Test
    void chunkIdOfAnotherDocumentIsRejected() {
        EntityGraph graph = EntityGraph.inMemory();
        graph.upsertDocument(NS, "a", List.of(new ChunkEntities("c1", List.of())), List.of());
        assertThatIllegalArgumentException()
                .isThrownBy(
                        () ->
                                graph.upsertDocument(
                                        NS,
                                        "b",
                                        List.of(new ChunkEntities("c1", List.of())),
                                        List.of()))
                .withMessage("illegal chunk id: c1, already a chunk of document a");
    }
}
