package dev.cairn.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConcurrentAccessTest {

    private static final String NS = "shop";

    @Test
    void readersRankConsistentlyWhileAWriterReingestsDocuments() throws Exception {
        Runbooks runbooks = Runbooks.load();
        EntityGraph graph = EntityGraph.inMemory();
        runbooks.ingestInto(graph, NS);
        GraphSignal signal = GraphSignal.create(graph);
        String question = "how do I fail over the primary database";
        List<String> expected = GraphSignalRunbookTest.documents(signal.rank(NS, question, 10));

        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(3)) {
            for (int r = 0; r < 2; r++) {
                pool.submit(
                        () -> {
                            while (done.getCount() > 0) {
                                try {
                                    // Re-ingesting the same content never changes the answer.
                                    assertThat(
                                                    GraphSignalRunbookTest.documents(
                                                            signal.rank(NS, question, 10)))
                                            .isEqualTo(expected);
                                    graph.searchEntities(NS, "ledger", 5);
                                } catch (Throwable t) {
                                    failures.add(t);
                                    return;
                                }
                            }
                        });
            }
            pool.submit(
                    () -> {
                        try {
                            for (int round = 0; round < 20; round++) {
                                for (Runbooks.Runbook r : runbooks.all()) {
                                    graph.ingest(NS, r.graphDocument());
                                }
                            }
                        } catch (Throwable t) {
                            failures.add(t);
                        } finally {
                            done.countDown();
                        }
                    });
            assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(failures).isEmpty();
    }
}
