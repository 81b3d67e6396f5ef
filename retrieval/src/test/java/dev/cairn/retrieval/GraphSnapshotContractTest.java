package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.graph.ProximityConfig;
import dev.cairn.graph.RelationType;
import dev.cairn.retrieval.ingest.DocumentParser;
import dev.cairn.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The entity graph's snapshot against each store backend: a graph loaded from its snapshot and
 * caught up from the change log (re-ingested, deleted and new documents, API relations, a namespace
 * dropped, all after the snapshot) is the graph a rebuild from the store makes.
 */
abstract class GraphSnapshotContractTest {

    @TempDir Path dir;
    Store store;
    KnowledgeBase kb;
    KnowledgeGraph graph;
    String ns;

    abstract Store openStore();

    static final List<String> QUERIES =
            List.of(
                    "how do I fail over the primary database?",
                    "checkout-api is slow",
                    "flush the cart cache",
                    "restore ledger-db from object storage");

    /** Declares ledger-db (alias PG), governs it, supersedes promote-2019. */
    static final String PROMOTE = EntityRepositoryContractTest.PROMOTE;

    static final String PROMOTE_2019 =
            """
            ---
            id: promote-2019
            title: Promote the ledger replica (2019)
            ---
            # Promote the ledger replica (2019)

            Stop checkout-api, then promote db-a.prod.internal by hand.
            """;

    static final String CHECKOUT =
            """
            ---
            id: checkout
            title: checkout-api latency
            entities:
              - {name: checkout-api, kind: service, aliases: [checkout]}
            depends_on: [ledger-db, cart-cache]
            ---
            # checkout-api latency

            ## Look
            The CheckoutLatencyHigh alert fires when checkout-api p99 is above 2s.

            ## Act
            checkout-api depends on cart-cache; flush cart-cache when its hit rate drops.
            """;

    static final String CHECKOUT_V2 =
            """
            ---
            id: checkout
            title: checkout-api latency
            entities:
              - {name: checkout-api, kind: service, aliases: [checkout]}
            depends_on: [ledger-db]
            ---
            # checkout-api latency

            The CheckoutLatencyHigh alert fires; scale checkout-api out with more pods.
            """;

    static final String CACHE =
            """
            ---
            id: cache-flush
            title: Flush the cart cache
            entities:
              - {name: cart-cache, kind: component}
            ---
            # Flush the cart cache

            Run `redis-cli FLUSHALL` on cart-cache-01.prod.internal; checkout-api refills it.
            """;

    static final String BACKUP =
            """
            ---
            id: backup
            title: Restore ledger-db
            governs: [ledger-db]
            ---
            # Restore ledger-db

            ledger-db backups live in object-storage; restore with `pgbackrest restore`.
            """;

    @BeforeEach
    void open() {
        store = openStore();
        ns = "gs-" + UUID.randomUUID().toString().substring(0, 8);
        store.createNamespace(ns, "test");
        graph = KnowledgeGraph.open(store, ProximityConfig.defaults(), snapshot());
        kb =
                KnowledgeBase.open(
                        store,
                        TestModel.get(),
                        dir.resolve("lucene"),
                        graph,
                        RetrievalConfig.defaults());
    }

    @AfterEach
    void close() {
        if (kb != null) {
            kb.close();
            graph.close();
        }
        if (store != null) { // null when the backend skipped the test
            store.close();
        }
    }

    Path snapshot() {
        return dir.resolve("entity-graph.snapshot");
    }

    void ingest(String namespace, String text) {
        kb.ingest(namespace, DocumentParser.parseMarkdown(text, "doc.md"));
    }

    List<String> image(KnowledgeGraph kg) {
        return GraphImage.of(
                kg,
                ns,
                List.of("promote", "promote-2019", "checkout", "cache-flush", "backup"),
                QUERIES);
    }

    /**
     * The graph a server that never restarted holds is the one loaded and caught up, always; the
     * graph a rebuild makes is too, for documents whose names do not depend on the order they came
     * in (a rebuild declares every document's names before reading any text, and forgets names only
     * withdrawn ones declared: see docs/entity-graph.md).
     */
    @Test
    void aGraphLoadedFromItsSnapshotAndCaughtUpIsTheGraphARebuildMakes() {
        KnowledgeGraph live = KnowledgeGraph.open(store); // follows every change, never reloads
        ingest(ns, PROMOTE);
        ingest(ns, CHECKOUT);
        ingest(ns, CACHE);
        graph.addRelation(ns, "checkout-api", "PG", RelationType.DEPENDS_ON, 0.5);
        kb.catchUp();
        graph.close(); // writes the snapshot; the changes below are the log's to replay
        assertThat(snapshot()).isNotEmptyFile();

        ingest(ns, PROMOTE_2019);
        ingest(ns, CHECKOUT_V2);
        kb.delete(ns, "cache-flush");
        ingest(ns, BACKUP);
        graph.addRelation(ns, "backup", "object-storage", RelationType.DEPENDS_ON, 1.0);
        String other = ns + "-x";
        store.createNamespace(other, "dropped after the snapshot");
        ingest(other, PROMOTE);
        store.deleteNamespace(other);

        KnowledgeGraph loaded = KnowledgeGraph.open(store, ProximityConfig.defaults(), snapshot());
        KnowledgeGraph rebuilt = KnowledgeGraph.open(store);
        try {
            assertThat(loaded.loadedFromSnapshot()).isTrue();
            assertThat(rebuilt.loadedFromSnapshot()).isFalse();
            assertThat(image(loaded)).isEqualTo(image(live));
            assertThat(image(loaded)).isEqualTo(image(rebuilt));
            // the changes after the snapshot are in: a deletion, a new document, a relation
            assertThat(loaded.document(ns, "cache-flush")).isEmpty();
            assertThat(loaded.document(ns, "backup")).isPresent();
            assertThat(loaded.entity(ns, "object-storage")).isPresent();
            assertThat(loaded.graph().stats(other).documents()).isZero();
            assertThat(loaded.rank(ns, "how do I fail over the primary database?", 10).chunks())
                    .isNotEmpty();
        } finally {
            loaded.close();
            rebuilt.close();
            live.close();
        }
        graph = KnowledgeGraph.open(store); // for close()
    }

    @Test
    void aGraphClosedWithoutChangesSinceItsSnapshotLoadsItAgainUnchanged() {
        ingest(ns, PROMOTE);
        ingest(ns, BACKUP);
        kb.catchUp();
        List<String> before = image(graph);
        graph.close();
        long written = snapshot().toFile().lastModified();

        graph = KnowledgeGraph.open(store, ProximityConfig.defaults(), snapshot());

        assertThat(graph.loadedFromSnapshot()).isTrue();
        assertThat(image(graph)).isEqualTo(before);
        assertThat(Files.exists(snapshot().resolveSibling("entity-graph.snapshot.tmp"))).isFalse();
        assertThat(snapshot().toFile().lastModified()).isEqualTo(written);
    }
}
