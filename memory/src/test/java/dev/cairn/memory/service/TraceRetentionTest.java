package dev.cairn.memory.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.memory.TrigramEmbeddingModel;
import dev.cairn.retrieval.lexical.LexicalConfig;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.safety.WriteGuard;
import dev.cairn.store.Change;
import dev.cairn.store.SqlAccess;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention of stored retrieve traces (issue 44): a maintenance round deletes the traces older than
 * {@code maintenance.trace-max-age-days}, in every namespace, and keeps the younger ones; with no
 * age set it keeps them all. The PostgreSQL subclass runs the same against the other store.
 */
class TraceRetentionTest {

    static final int DIMS = 64;
    static final Instant NOW = Instant.parse("2026-11-28T09:00:00Z");

    @TempDir Path temp;
    Store store;

    /** The store under test; the PostgreSQL subclass opens a database. */
    Store openStore(Path dir) {
        return Store.embedded(dir, StoreConfig.defaults().withDimensions(DIMS));
    }

    @BeforeEach
    void open() {
        store = openStore(temp.resolve("data"));
        store.createNamespace("team", "");
        store.createNamespace("other", "");
    }

    @AfterEach
    void close() {
        // null when the store could not be opened: the PostgreSQL subclass skipped without one
        if (store != null) {
            store.close();
        }
    }

    private MemoryService service(Duration traceMaxAge) {
        return MemoryService.create(
                store,
                new TrigramEmbeddingModel(DIMS),
                LexicalIndex.inMemory(LexicalConfig.DEFAULTS),
                WriteGuard.standard(),
                MemoryServiceConfig.defaults()
                        .withMaintenance(
                                MemoryServiceConfig.Maintenance.defaults()
                                        .withInterval(Duration.ZERO)
                                        .withTraceMaxAge(traceMaxAge)),
                new MutableClock(NOW));
    }

    @Test
    void aRoundDeletesTracesOlderThanTheAgeInEveryNamespace() {
        trace("team", "old", NOW.minus(Duration.ofDays(31)));
        trace("team", "young", NOW.minus(Duration.ofDays(29)));
        trace("other", "older", NOW.minus(Duration.ofDays(400)));
        long before = store.lastChangeSeq();

        try (MemoryService memory = service(Duration.ofDays(30))) {
            memory.maintain();
        }

        assertThat(traces("team")).containsExactly("young");
        assertThat(traces("other")).isEmpty();
        assertThat(store.changesSince(before, 100))
                .filteredOn(c -> c.kind() == Change.Kind.TRACE)
                .extracting(Change::entityId, Change::op)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("old", Change.Op.DELETE),
                        org.assertj.core.groups.Tuple.tuple("older", Change.Op.DELETE));
    }

    @Test
    void withoutAnAgeEveryTraceStays() {
        trace("team", "old", NOW.minus(Duration.ofDays(4000)));

        try (MemoryService memory = service(Duration.ZERO)) {
            memory.maintain();
        }

        assertThat(traces("team")).containsExactly("old");
    }

    private void trace(String namespace, String id, Instant at) {
        SqlAccess sql = store.sql();
        sql.write(
                namespace,
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "INSERT INTO retrieval_traces (namespace, id, query, request,"
                                            + " grounding, plan, timings, signals, created_at)"
                                            + " VALUES (?, ?, ?, ?, 0, 'DIRECT', ?, ?, ?)")) {
                        ps.setString(1, namespace);
                        ps.setString(2, id);
                        ps.setString(3, "query of " + id);
                        sql.bindJson(ps, 4, "{}");
                        sql.bindJson(ps, 5, "{}");
                        sql.bindJson(ps, 6, "[]");
                        sql.bindInstant(ps, 7, at);
                        ps.executeUpdate();
                    }
                    return null;
                });
    }

    private List<String> traces(String namespace) {
        return store.sql()
                .read(
                        c -> {
                            List<String> ids = new ArrayList<>();
                            try (PreparedStatement ps =
                                    c.prepareStatement(
                                            "SELECT id FROM retrieval_traces WHERE namespace = ?"
                                                    + " ORDER BY id")) {
                                ps.setString(1, namespace);
                                try (ResultSet rs = ps.executeQuery()) {
                                    while (rs.next()) {
                                        ids.add(rs.getString(1));
                                    }
                                }
                            }
                            return ids;
                        });
    }
}
