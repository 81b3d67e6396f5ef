package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.graph.GraphRelation;
import dev.cairn.graph.RelationType;
import dev.cairn.retrieval.ingest.DocumentParser;
import dev.cairn.store.Change;
import dev.cairn.store.Store;
import java.nio.file.Path;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The V005 entity tables through {@link KnowledgeBase} and {@link KnowledgeGraph}, run against each
 * store backend: declarations and derived rows per document, replaced by a re-ingest, gone with the
 * document or the namespace; API relations with their change rows; a graph rebuilt from the store.
 */
abstract class EntityRepositoryContractTest {

    @TempDir Path indexRoot;
    Store store;
    KnowledgeGraph graph;
    KnowledgeBase kb;
    EntityRepository repository;
    String ns;

    abstract Store openStore();

    static final String PROMOTE =
            """
            ---
            id: promote
            title: Promote the ledger replica
            entities:
              - {name: ledger-db, kind: database, aliases: [PG, primary database]}
            governs: [ledger-db]
            supersedes: [promote-2019]
            ---
            # Promote the ledger replica

            Run `pg_ctl promote` on db-b.prod.internal. checkout-api depends on ledger-db.
            """;

    @BeforeEach
    void open() {
        store = openStore();
        ns = "eg-" + UUID.randomUUID().toString().substring(0, 8);
        store.createNamespace(ns, "test");
        graph = KnowledgeGraph.open(store);
        kb =
                KnowledgeBase.open(
                        store,
                        TestModel.get(),
                        indexRoot.resolve("lucene"),
                        graph,
                        RetrievalConfig.defaults());
        repository = new EntityRepository(store.sql());
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

    void ingest(String text) {
        kb.ingest(ns, DocumentParser.parseMarkdown(text, "doc.md"));
    }

    @Test
    void ingestPersistsDeclarationsAndWhatExtractionDerived() {
        ingest(PROMOTE);

        EntityRepository.Declarations declared = repository.declarations(ns, "promote");
        assertThat(declared.entities()).extracting(e -> e.name()).containsExactly("ledger-db");
        assertThat(declared.entities().getFirst().aliases()).contains("PG", "primary database");
        assertThat(declared.relations())
                .containsEntry(RelationType.GOVERNS, List.of("ledger-db"))
                .containsEntry(RelationType.SUPERSEDES, List.of("promote-2019"));
        assertThat(repository.chunkLinks(ns, "promote").values())
                .anySatisfy(links -> assertThat(links).containsKey("ledger-db"));
        assertThat(repository.entities(ns, "promote", EntityRepository.Source.EXTRACTED))
                .extracting(e -> e.name())
                .contains("db-b.prod.internal");
        assertThat(repository.relations(ns, "promote", EntityRepository.Source.TEXT))
                .extracting(r -> r.relation().type())
                .contains(RelationType.DEPENDS_ON);
        assertThat(repository.supersessions(ns))
                .containsEntry("promote-2019", java.util.Set.of("promote"));
    }

    @Test
    void reingestReplacesADocumentsRowsAndDeleteRemovesThem() {
        ingest(PROMOTE);
        ingest(
                """
                ---
                id: promote
                title: Promote the ledger replica
                depends_on: [object-storage]
                ---
                # Promote the ledger replica

                Nothing to see.
                """);

        EntityRepository.Declarations declared = repository.declarations(ns, "promote");
        assertThat(declared.entities()).isEmpty();
        assertThat(declared.relations()).containsOnlyKeys(RelationType.DEPENDS_ON);
        assertThat(repository.relations(ns, "promote", EntityRepository.Source.TEXT)).isEmpty();
        assertThat(repository.supersessions(ns)).isEmpty();
        assertThat(graph.graph().entity(ns, "object-storage")).isPresent();

        kb.delete(ns, "promote");

        assertThat(repository.declarations(ns, "promote").relations()).isEmpty();
        assertThat(repository.chunkLinks(ns, "promote")).isEmpty();
        assertThat(graph.graph().stats(ns).documents()).isZero();
    }

    @Test
    void apiRelationIsStoredWithAChangeRowAndReachesTheGraph() {
        ingest(PROMOTE);
        long before = store.lastChangeSeq();

        graph.addRelation(ns, "checkout-api", "ledger-db", RelationType.DEPENDS_ON, 0.5);

        List<Change> changes = store.changesSince(before, 10);
        assertThat(changes)
                .extracting(Change::kind, Change::op)
                .containsExactly(
                        org.assertj.core.api.Assertions.tuple(
                                Change.Kind.RELATION, Change.Op.UPSERT));
        assertThat(repository.relations(ns, "", EntityRepository.Source.API))
                .singleElement()
                .satisfies(r -> assertThat(r.relation().confidence()).isEqualTo(0.5));
        kb.catchUp();
        assertThat(graph.graph().entity(ns, "checkout-api").orElseThrow().relations())
                .anySatisfy(r -> assertThat(r.type()).isEqualTo(RelationType.DEPENDS_ON));
        kb.catchUp(); // applying the same change again adds nothing
        assertThat(graph.graph().entity(ns, "checkout-api").orElseThrow().relations())
                .filteredOn(r -> r.type() == RelationType.DEPENDS_ON && r.weight() == 0.4)
                .hasSize(1);
    }

    @Test
    void theSameApiRelationPostedTwiceIsStoredOnceAndResolvesToTheKnownEntity() {
        ingest(PROMOTE);
        KnowledgeGraph.AddedRelation first =
                graph.addRelation(ns, "checkout-api", "PG", RelationType.DEPENDS_ON, 0.5);
        long afterFirst = store.lastChangeSeq();
        KnowledgeGraph.AddedRelation second =
                graph.addRelation(ns, "checkout-api", "PG", RelationType.DEPENDS_ON, 0.9);

        assertThat(first.created()).isTrue();
        assertThat(second.created()).isFalse();
        assertThat(second.confidence()).isEqualTo(0.5); // the stored one answers
        assertThat(store.lastChangeSeq()).isEqualTo(afterFirst);
        assertThat(repository.relations(ns, "", EntityRepository.Source.API)).hasSize(1);

        kb.catchUp();
        GraphRelation located = graph.locate(ns, second.relation());
        assertThat(located.from().toString()).isEqualTo("entity:checkout-api");
        assertThat(located.to().toString()).isEqualTo("entity:ledger-db");
        // a different type between the same ends is another relation
        assertThat(graph.addRelation(ns, "checkout-api", "PG", RelationType.GOVERNS, 1.0).created())
                .isTrue();
    }

    @Test
    void apiRelationInAMissingNamespaceIsNotFound() {
        assertThatThrownBy(
                        () -> graph.addRelation("no-such-ns", "a", "b", RelationType.GOVERNS, 1.0))
                .isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void graphRebuiltFromTheStoreHoldsDocumentsAndApiRelations() {
        ingest(PROMOTE);
        graph.addRelation(ns, "checkout-api", "ledger-db", RelationType.DEPENDS_ON, 1.0);
        kb.catchUp();

        KnowledgeGraph rebuilt = KnowledgeGraph.open(store);

        assertThat(rebuilt.graph().stats(ns)).isEqualTo(graph.graph().stats(ns));
        assertThat(rebuilt.entity(ns, "PG").orElseThrow().entity().id()).isEqualTo("ledger-db");
        assertThat(rebuilt.rank(ns, "primary database", 5).chunks())
                .isEqualTo(graph.rank(ns, "primary database", 5).chunks());
    }

    @Test
    void deletingTheNamespaceRemovesItsRowsAndItsGraph() {
        ingest(PROMOTE);

        store.deleteNamespace(ns);
        kb.catchUp();

        assertThat(graph.graph().stats(ns).entities()).isZero();
        store.createNamespace(ns, "again");
        assertThat(repository.declarations(ns, "promote").entities()).isEmpty();
        assertThat(repository.chunkLinks(ns, "promote")).isEmpty();
    }
}
