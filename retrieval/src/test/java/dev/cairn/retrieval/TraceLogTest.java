package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Traces are written behind the answer but readable at once, kept across restarts and pruned. */
class TraceLogTest {

    @TempDir Path dir;

    @Test
    void aSavedTraceIsReadableAtOnceAndFromTheStoreAfterClose() {
        try (Store store = Store.embedded(dir, StoreConfig.defaults().withDimensions(4))) {
            store.createNamespace("ops", "");
            store.createNamespace("other", "");
            TraceLog log = new TraceLog(store.sql(), 100);
            log.save("ops", trace("ops", "t-1", Instant.parse("2026-11-22T10:00:00Z")));

            assertThat(log.find("ops", "t-1"))
                    .get()
                    .extracting(StoredTrace::query)
                    .isEqualTo("q t-1");
            assertThat(log.find("other", "t-1")).isEmpty();
            log.close();

            TraceLog reopened = new TraceLog(store.sql(), 100);
            StoredTrace stored = reopened.find("ops", "t-1").orElseThrow();
            assertThat(stored.entries()).hasSize(2);
            assertThat(stored.selected())
                    .extracting(StoredTrace.Entry::text)
                    .containsExactly("runbook text");
            assertThat(stored.entries().get(1).ranks()).containsEntry(Signal.DENSE, 2);
            assertThat(stored.entries().get(1).filteredOut()).isTrue();
            assertThat(stored.entries().get(1).explanation())
                    .isEqualTo("weight(text:runbook) = 1.2");
            assertThat(stored.entries().get(1).graphPath())
                    .containsExactly(
                            new GraphContext.TraversedRelation("ledger-db", "d2", "governs", 0.8));
            assertThat(stored.entries().get(0).filteredOut()).isFalse();
            assertThat(stored.entries().get(0).graphPath()).isEmpty();
            assertThat(reopened.find("other", "t-1")).isEmpty();
            reopened.close();
        }
    }

    @Test
    void keepsOnlyTheNewestTracesPerNamespace() {
        try (Store store = Store.embedded(dir, StoreConfig.defaults().withDimensions(4))) {
            store.createNamespace("ops", "");
            TraceLog log = new TraceLog(store.sql(), 50);
            Instant t0 = Instant.parse("2026-11-22T10:00:00Z");
            for (int i = 0; i < TraceLog.PRUNE_EVERY; i++) {
                log.save("ops", trace("ops", "t-" + i, t0.plusSeconds(i)));
            }
            log.close();

            TraceLog reopened = new TraceLog(store.sql(), 50);
            assertThat(reopened.find("ops", "t-0")).isEmpty();
            assertThat(reopened.find("ops", "t-49")).isEmpty();
            assertThat(reopened.find("ops", "t-50")).isPresent();
            assertThat(reopened.find("ops", "t-" + (TraceLog.PRUNE_EVERY - 1))).isPresent();
            reopened.close();
        }
    }

    private static StoredTrace trace(String namespace, String id, Instant at) {
        return new StoredTrace(
                id,
                namespace,
                "q " + id,
                Map.of("query", "q " + id),
                0.7,
                Plan.SCOPED,
                new Timings(1, 2, 0, 0.5, 3.5),
                List.of(new SignalOutcome(Signal.LEXICAL, SignalOutcome.Status.OK, 1, 2, "")),
                at,
                List.of(
                        new StoredTrace.Entry(
                                0,
                                "c1",
                                "d1",
                                0.03,
                                Map.of(Signal.LEXICAL, 1),
                                Map.of(Signal.LEXICAL, 4.2),
                                true,
                                "Runbook",
                                "Failover",
                                "runbook text",
                                Authority.DEFAULT),
                        new StoredTrace.Entry(
                                1,
                                "c2",
                                "d2",
                                0.02,
                                Map.of(Signal.DENSE, 2),
                                Map.of(Signal.DENSE, 0.8),
                                false,
                                "",
                                "",
                                "",
                                Authority.DEFAULT,
                                true,
                                "weight(text:runbook) = 1.2",
                                List.of(
                                        new GraphContext.TraversedRelation(
                                                "ledger-db", "d2", "governs", 0.8)))));
    }
}
