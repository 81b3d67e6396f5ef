package dev.cairn.retrieval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.store.Change;
import dev.cairn.store.SqlAccess;
import dev.cairn.store.StoreException;
import dev.cairn.store.WriteBehind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Persists retrieve traces in {@code retrieval_traces}, a row each with its candidates in one
 * column ({@link TraceEntries}), keeping at most the configured number per namespace (pruned every
 * {@value #PRUNE_EVERY} writes).
 *
 * <p>Writes happen behind the answer: a trace is a row of some 12 KB with a durable commit (an
 * fsync in SQLite, a round trip in PostgreSQL), milliseconds that a retrieve caller should not wait
 * for. The writer takes every trace that queued while it was busy and writes them in one
 * transaction per namespace, so under load many traces share one commit. Until its write is done a
 * trace is served from memory, so {@link #find} sees every trace as soon as {@link #save} returns.
 * At most {@value #MAX_PENDING} traces wait; beyond that {@code save} writes in the caller's
 * thread, so a slow database slows retrieves rather than filling the heap. {@link #close} waits for
 * the writes; a process killed before that loses the traces of its last moments, never other data.
 * Thread-safe.
 */
final class TraceLog implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(TraceLog.class.getName());

    static final int PRUNE_EVERY = 100;

    /** Traces at most waiting for their write. */
    static final int MAX_PENDING = 256;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};

    private final SqlAccess sql;
    private final int retention;
    private final AtomicLong written = new AtomicLong();
    private final Map<String, StoredTrace> pending = new ConcurrentHashMap<>();
    private final WriteBehind<StoredTrace> writes =
            new WriteBehind<>("cairn-trace-writer", this::writeQueued, Duration.ofSeconds(30));

    TraceLog(SqlAccess sql, int retention) {
        this.sql = sql;
        this.retention = retention;
    }

    /** Queues the trace for writing; {@link #find} returns it from now on. */
    void save(String namespace, StoredTrace trace) {
        if (pending.size() >= MAX_PENDING) {
            write(namespace, List.of(trace));
            return;
        }
        pending.put(trace.traceId(), trace);
        writes.add(trace);
    }

    /** Writes a batch of queued traces, one transaction per namespace. */
    private void writeQueued(List<StoredTrace> queued) {
        Map<String, List<StoredTrace>> byNamespace = new LinkedHashMap<>();
        for (StoredTrace t : queued) {
            byNamespace.computeIfAbsent(t.namespace(), n -> new ArrayList<>()).add(t);
        }
        byNamespace.forEach(
                (namespace, traces) -> {
                    try {
                        write(namespace, traces);
                    } catch (RuntimeException e) {
                        LOG.log(
                                System.Logger.Level.WARNING,
                                traces.size()
                                        + " traces of namespace "
                                        + namespace
                                        + " not stored: "
                                        + e.getMessage(),
                                e);
                    } finally {
                        traces.forEach(t -> pending.remove(t.traceId()));
                    }
                });
    }

    /** Returns once every trace queued before the call is written. */
    void flush() {
        writes.flush();
    }

    /** Waits for every queued trace to be written. */
    @Override
    public void close() {
        writes.close();
    }

    private void write(String namespace, List<StoredTrace> traces) {
        sql.write(
                namespace,
                c -> {
                    for (StoredTrace trace : traces) {
                        insertTrace(c, namespace, trace);
                        sql.appendChange(
                                c, namespace, Change.Kind.TRACE, trace.traceId(), Change.Op.UPSERT);
                    }
                    return null;
                });
        long before = written.getAndAdd(traces.size());
        if (before / PRUNE_EVERY != (before + traces.size()) / PRUNE_EVERY) {
            prune(namespace);
        }
    }

    private void insertTrace(Connection c, String namespace, StoredTrace trace)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO retrieval_traces (namespace, id, query, request, grounding,"
                                + " plan, timings, signals, created_at, entries, user_id)"
                                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, namespace);
            ps.setString(2, trace.traceId());
            ps.setString(3, trace.query());
            sql.bindJson(ps, 4, json(trace.request()));
            ps.setDouble(5, trace.grounding());
            ps.setString(6, trace.plan().name());
            sql.bindJson(ps, 7, json(trace.timings()));
            sql.bindJson(ps, 8, json(trace.signals()));
            sql.bindInstant(ps, 9, trace.createdAt());
            ps.setBytes(10, TraceEntries.encode(trace.entries()));
            ps.setString(11, trace.userId());
            ps.executeUpdate();
        }
    }

    Optional<StoredTrace> find(String namespace, String traceId) {
        StoredTrace queued = pending.get(traceId);
        if (queued != null) {
            return queued.namespace().equals(namespace) ? Optional.of(queued) : Optional.empty();
        }
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT query, request, grounding, plan, timings, signals,"
                                            + " created_at, entries FROM retrieval_traces"
                                            + " WHERE namespace = ? AND id = ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, traceId);
                        try (ResultSet rs = ps.executeQuery()) {
                            if (!rs.next()) {
                                return Optional.empty();
                            }
                            return Optional.of(
                                    new StoredTrace(
                                            traceId,
                                            namespace,
                                            rs.getString("query"),
                                            parse(rs.getString("request"), OBJECT),
                                            rs.getDouble("grounding"),
                                            Plan.valueOf(rs.getString("plan")),
                                            parse(
                                                    rs.getString("timings"),
                                                    new TypeReference<Timings>() {}),
                                            parse(
                                                    rs.getString("signals"),
                                                    new TypeReference<List<SignalOutcome>>() {}),
                                            sql.readInstant(rs, "created_at"),
                                            TraceEntries.decode(rs.getBytes("entries"))));
                        }
                    }
                });
    }

    /** Deletes all but the newest {@code retention} traces of the namespace. */
    void prune(String namespace) {
        sql.write(
                namespace,
                c -> {
                    Instant cutoff = null;
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT created_at FROM retrieval_traces WHERE namespace = ?"
                                            + " ORDER BY created_at DESC LIMIT 1 OFFSET ?")) {
                        ps.setString(1, namespace);
                        ps.setInt(2, retention - 1);
                        try (ResultSet rs = ps.executeQuery()) {
                            if (rs.next()) {
                                cutoff = sql.readInstant(rs, "created_at");
                            }
                        }
                    }
                    if (cutoff == null) {
                        return null;
                    }
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "DELETE FROM retrieval_traces WHERE namespace = ? AND"
                                            + " created_at < ?")) {
                        ps.setString(1, namespace);
                        sql.bindInstant(ps, 2, cutoff);
                        ps.executeUpdate();
                    }
                    return null;
                });
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a trace", e);
        }
    }

    private static <T> T parse(String json, TypeReference<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new StoreException("stored trace is not valid JSON", e);
        }
    }
}
