package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.store.PostgresTestDatabase;
import dev.cairn.store.SqlAccess;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traces stored as a row per candidate (before V014) are read after the migration as they were
 * written, on both stores: the migration turns the rows into undeflated JSON in SQL.
 */
class TraceRowsMigrationTest {

    @TempDir Path dir;

    @Test
    void embedded() {
        convertsTracesStoredAsRows(
                () -> Store.embedded(dir, StoreConfig.defaults().withDimensions(4)));
    }

    @Test
    void postgres() {
        PostgresTestDatabase.assumeAvailable();
        try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
            convertsTracesStoredAsRows(
                    () ->
                            Store.postgres(
                                    database.jdbcUrl(), StoreConfig.defaults().withDimensions(4)));
        }
    }

    private void convertsTracesStoredAsRows(Supplier<Store> open) {
        Instant at = Instant.parse("2026-11-20T08:00:00Z");
        try (Store store = open.get()) {
            store.createNamespace("ops", "");
            SqlAccess sql = store.sql();
            boolean postgres = sql.dialect() == SqlAccess.Dialect.POSTGRES;
            sql.write(
                    "ops",
                    c -> {
                        try (Statement s = c.createStatement()) {
                            s.execute("DELETE FROM schema_migrations WHERE version = 14");
                            s.execute("ALTER TABLE retrieval_traces DROP COLUMN entries");
                            s.execute(postgres ? HITS_POSTGRES : HITS_SQLITE);
                        }
                        for (String id : List.of("t-old", "t-none")) {
                            try (PreparedStatement ps =
                                    c.prepareStatement(
                                            "INSERT INTO retrieval_traces (namespace, id, query,"
                                                    + " request, grounding, plan, timings,"
                                                    + " signals, created_at)"
                                                    + " VALUES ('ops', ?, ?, ?, 0.5, 'DIRECT', ?,"
                                                    + " ?, ?)")) {
                                ps.setString(1, id);
                                ps.setString(2, "q " + id);
                                sql.bindJson(ps, 3, "{\"query\":\"q\"}");
                                sql.bindJson(
                                        ps,
                                        4,
                                        "{\"lexicalMs\":1.0,\"denseMs\":2.0,\"graphMs\":0.0,"
                                                + "\"fusionMs\":0.5,\"totalMs\":3.5}");
                                sql.bindJson(ps, 5, "[]");
                                sql.bindInstant(ps, 6, at);
                                ps.executeUpdate();
                            }
                        }
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "INSERT INTO retrieval_trace_hits (namespace, trace_id,"
                                                + " position, chunk_id, document_id, fused, ranks,"
                                                + " scores, selected, title, heading, text,"
                                                + " authority, filtered_out, explanation,"
                                                + " graph_path) VALUES ('ops', 't-old', ?, ?,"
                                                + " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                            // inserted out of order: the conversion orders by position
                            for (StoredTrace.Entry e : OLD_ENTRIES.reversed()) {
                                ps.setInt(1, e.position());
                                ps.setString(2, e.chunkId());
                                ps.setString(3, e.documentId());
                                ps.setDouble(4, e.fused());
                                sql.bindJson(ps, 5, asWrittenBefore(e.ranks()));
                                sql.bindJson(ps, 6, asWrittenBefore(e.scores()));
                                ps.setBoolean(7, e.selected());
                                ps.setString(8, e.title());
                                ps.setString(9, e.heading());
                                ps.setString(10, e.text());
                                ps.setString(11, e.authority().name());
                                ps.setBoolean(12, e.filteredOut());
                                ps.setString(13, e.explanation());
                                sql.bindJson(ps, 14, asWrittenBefore(e.graphPath()));
                                ps.executeUpdate();
                            }
                        }
                        return null;
                    });
        }

        try (Store store = open.get()) {
            TraceLog log = new TraceLog(store.sql(), 100);
            StoredTrace old = log.find("ops", "t-old").orElseThrow();
            assertThat(old.query()).isEqualTo("q t-old");
            assertThat(old.createdAt()).isEqualTo(at);
            assertThat(old.entries()).containsExactlyElementsOf(OLD_ENTRIES);
            assertThat(log.find("ops", "t-none").orElseThrow().entries()).isEmpty();
            log.close();
        }
    }

    /**
     * A 17-digit fused score, quotes and a dash in text, a filtered candidate with a graph path.
     */
    private static final List<StoredTrace.Entry> OLD_ENTRIES =
            List.of(
                    new StoredTrace.Entry(
                            0,
                            "c1",
                            "d1",
                            0.033377855444203644,
                            Map.of(Signal.LEXICAL, 1, Signal.DENSE, 3),
                            Map.of(Signal.LEXICAL, 4.25, Signal.DENSE, 0.71685594),
                            true,
                            "Runbook",
                            "Failover",
                            "Run \"pg_ctl promote\" — then DNS",
                            Authority.AUTHORITATIVE),
                    new StoredTrace.Entry(
                            1,
                            "c2",
                            "d2",
                            0.0161,
                            Map.of(Signal.DENSE, 2),
                            Map.of(Signal.DENSE, 0.5),
                            false,
                            "",
                            "",
                            "",
                            Authority.UNVERIFIED,
                            true,
                            "weight(text:runbook) = 1.2",
                            List.of(
                                    new GraphContext.TraversedRelation(
                                            "ledger-db", "d2", "governs", 0.8))));

    /** The JSON the row-per-candidate writer bound: Jackson's, signals by name. */
    private static String asWrittenBefore(Object value) {
        Object named = value;
        if (value instanceof Map<?, ?> bySignal) {
            Map<String, Object> byName = new HashMap<>();
            bySignal.forEach((k, v) -> byName.put(((Signal) k).name(), v));
            named = byName;
        }
        try {
            return MAPPER.writeValueAsString(named);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** retrieval_trace_hits as V002 and V009 left it, per dialect. */
    private static final String HITS_SQLITE =
            """
            CREATE TABLE retrieval_trace_hits (
                namespace TEXT NOT NULL, trace_id TEXT NOT NULL, position INTEGER NOT NULL,
                chunk_id TEXT NOT NULL, document_id TEXT NOT NULL, fused REAL NOT NULL,
                ranks TEXT NOT NULL, scores TEXT NOT NULL, selected INTEGER NOT NULL,
                title TEXT NOT NULL, heading TEXT NOT NULL, text TEXT NOT NULL,
                authority TEXT NOT NULL, filtered_out INTEGER NOT NULL DEFAULT 0,
                explanation TEXT NOT NULL DEFAULT '', graph_path TEXT NOT NULL DEFAULT '[]',
                PRIMARY KEY (namespace, trace_id, position),
                FOREIGN KEY (namespace, trace_id) REFERENCES retrieval_traces (namespace, id)
                    ON DELETE CASCADE)""";

    private static final String HITS_POSTGRES =
            """
            CREATE TABLE retrieval_trace_hits (
                namespace text COLLATE "C" NOT NULL, trace_id text COLLATE "C" NOT NULL,
                position integer NOT NULL, chunk_id text COLLATE "C" NOT NULL,
                document_id text COLLATE "C" NOT NULL, fused double precision NOT NULL,
                ranks jsonb NOT NULL, scores jsonb NOT NULL, selected boolean NOT NULL,
                title text NOT NULL, heading text NOT NULL, text text NOT NULL,
                authority text NOT NULL, filtered_out boolean NOT NULL DEFAULT false,
                explanation text NOT NULL DEFAULT '', graph_path jsonb NOT NULL DEFAULT '[]',
                PRIMARY KEY (namespace, trace_id, position),
                FOREIGN KEY (namespace, trace_id) REFERENCES retrieval_traces (namespace, id)
                    ON DELETE CASCADE)""";
}
