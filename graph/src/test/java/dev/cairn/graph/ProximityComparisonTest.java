package dev.cairn.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Quality of the two proximity strategies on the runbook fixture: per query the runbook a person
 * would open first; MRR@10 and hit@3 over distinct documents in hit order. Prints a table; the
 * default strategy must not be worse than the other one.
 */
class ProximityComparisonTest {

    private static final String NS = "shop";

    /** Query and the runbook that answers it. */
    static final Map<String, String> JUDGEMENTS =
            Map.ofEntries(
                    Map.entry(
                            "how do I fail over the primary database", "ledger-db-promote-replica"),
                    Map.entry("rebuild the elasticsearch index", "search-reindex"),
                    Map.entry("KubePodCrashLooping on checkout", "checkout-crashloop"),
                    Map.entry("payments queue is backing up", "payments-queue-drain"),
                    Map.entry("rotate certificates on the ingress", "edge-tls-rotate"),
                    Map.entry("blob store bucket is full", "object-storage-capacity"),
                    Map.entry("restore PG from last night's backup", "ledger-db-backup-restore"),
                    Map.entry(
                            "replay messages from the dead letter exchange",
                            "payments-dead-letters"),
                    Map.entry("pgbouncer out of connections", "ledger-db-connection-pool"),
                    Map.entry("k8s node NotReady", "kube-node-not-ready"),
                    Map.entry("purge the CDN", "cdn-purge"),
                    Map.entry("vault secret rotation for payments-api", "secrets-rotation"),
                    Map.entry("LedgerReplicationLagHigh firing", "ledger-replication-lag"),
                    Map.entry("inventory-worker not reserving stock", "inventory-worker-stuck"),
                    Map.entry("catalog-api product pages slow", "catalog-api-slow"),
                    Map.entry("checkout service errors", "checkout-api-overview"));

    record Quality(double mrr, double hitAt3, double meanMicros) {}

    static Quality evaluate(EntityGraph graph, Proximity strategy, boolean print) {
        GraphSignal signal =
                GraphSignal.create(graph, ProximityConfig.defaults().withStrategy(strategy));
        double mrr = 0;
        int hits3 = 0;
        long nanos = 0;
        for (int round = 0; round < 50; round++) { // warm up the JIT a little
            JUDGEMENTS.keySet().forEach(q -> signal.rank(NS, q, 10));
        }
        for (Map.Entry<String, String> j : JUDGEMENTS.entrySet()) {
            long t0 = System.nanoTime();
            GraphResult result = signal.rank(NS, j.getKey(), 30);
            nanos += System.nanoTime() - t0;
            List<String> docs = GraphSignalRunbookTest.documents(result);
            int rank = docs.indexOf(j.getValue()) + 1;
            if (rank >= 1 && rank <= 10) {
                mrr += 1.0 / rank;
            }
            if (rank >= 1 && rank <= 3) {
                hits3++;
            }
            if (print) {
                System.out.printf(
                        Locale.ROOT,
                        "%-22s %-48s rank %2d  top %s%n",
                        strategy,
                        j.getKey(),
                        rank,
                        docs.subList(0, Math.min(3, docs.size())));
            }
        }
        int n = JUDGEMENTS.size();
        return new Quality(mrr / n, (double) hits3 / n, nanos / 1000.0 / n);
    }

    @Test
    void defaultStrategyIsAtLeastAsGoodAsTheOtherOnTheRunbooks() {
        EntityGraph graph = EntityGraph.inMemory();
        Runbooks.load().ingestInto(graph, NS);
        Map<Proximity, Quality> quality = new EnumMap<>(Proximity.class);
        for (Proximity p : Proximity.values()) {
            quality.put(p, evaluate(graph, p, true));
        }
        quality.forEach(
                (p, q) ->
                        System.out.printf(
                                Locale.ROOT,
                                "%-22s MRR@10 %.3f  hit@3 %.3f  mean %.1f us/query%n",
                                p,
                                q.mrr(),
                                q.hitAt3(),
                                q.meanMicros()));
        Proximity chosen = ProximityConfig.defaults().strategy();
        for (Proximity p : Proximity.values()) {
            assertThat(quality.get(chosen).mrr()).isGreaterThanOrEqualTo(quality.get(p).mrr());
        }
        assertThat(quality.get(chosen).hitAt3()).isGreaterThanOrEqualTo(0.8);
    }
}
