package dev.cairn.memory.store;

import dev.cairn.memory.Memory;
import dev.cairn.memory.MemorySource;
import dev.cairn.memory.MemoryStatus;
import dev.cairn.memory.StatusTransition;
import dev.cairn.memory.TurnWindows;
import dev.cairn.store.Change;
import dev.cairn.store.OneOf;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.SqlAccess;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@link MemoryRepository} over {@link SqlAccess}, SQLite and PostgreSQL: the statements; a row's
 * columns are {@link MemoryColumns}', a filter's WHERE clause {@link MemoryWhere}'s. Thread-safe.
 */
final class SqlMemoryRepository implements MemoryRepository {

    private final SqlAccess sql;
    private final int dimensions;
    private final MemoryColumns columns;

    SqlMemoryRepository(SqlAccess sql, int dimensions) {
        this.sql = Objects.requireNonNull(sql, "sql");
        this.dimensions = dimensions;
        this.columns = new MemoryColumns(sql);
    }

    @Override
    public void write(String namespace, List<MemoryRow> rows, List<StatusTransition> transitions) {
        for (MemoryRow row : rows) {
            if (!row.memory().scope().namespace().equals(namespace)) {
                throw new IllegalArgumentException(
                        "illegal memory "
                                + row.memory().id()
                                + ": of namespace '"
                                + row.memory().scope().namespace()
                                + "', must be of '"
                                + namespace
                                + "'");
            }
        }
        sql.write(
                namespace,
                c -> {
                    try (PreparedStatement ps = c.prepareStatement(MemoryColumns.UPSERT)) {
                        for (MemoryRow row : rows) {
                            float[] v = row.embedding();
                            if (v.length != 0 && v.length != dimensions) {
                                throw new IllegalArgumentException(
                                        "illegal embedding of "
                                                + row.memory().id()
                                                + ": "
                                                + v.length
                                                + " dimensions, must be "
                                                + dimensions);
                            }
                            columns.bind(ps, row.memory());
                            sql.bindVector(ps, MemoryColumns.EMBEDDING, row.embedding());
                            List<float[]> windows = row.windows();
                            ps.setBytes(
                                    MemoryColumns.WINDOWS,
                                    windows == null
                                            ? null
                                            : MemoryColumns.packWindows(windows, dimensions));
                            ps.executeUpdate();
                        }
                    }
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "INSERT INTO memory_transitions (namespace, memory_id,"
                                            + " from_status, to_status, at, actor, reason)"
                                            + " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                        for (StatusTransition t : transitions) {
                            ps.setString(1, namespace);
                            ps.setString(2, t.memoryId());
                            ps.setString(3, t.from().name());
                            ps.setString(4, t.to().name());
                            sql.bindInstant(ps, 5, t.at());
                            ps.setString(6, t.actor());
                            ps.setString(7, t.reason());
                            ps.executeUpdate();
                        }
                    }
                    for (String id :
                            new TreeSet<>(rows.stream().map(r -> r.memory().id()).toList())) {
                        sql.appendChange(c, namespace, Change.Kind.MEMORY, id, Change.Op.UPSERT);
                    }
                    return null;
                });
    }

    @Override
    public Optional<Memory> find(String namespace, String id) {
        List<Memory> found =
                query(
                        "SELECT "
                                + MemoryColumns.COLUMNS
                                + " FROM memories WHERE namespace = ? AND id = ?",
                        namespace,
                        id);
        return found.stream().findFirst();
    }

    @Override
    public List<Memory> findAll(String namespace, Collection<String> ids) {
        List<Memory> out = new ArrayList<>();
        // sorted before batching, so the batches, each in id order, follow one another
        for (OneOf batch : OneOf.batches(sql, "id", new TreeSet<>(ids))) {
            out.addAll(
                    query(
                            "SELECT "
                                    + MemoryColumns.COLUMNS
                                    + " FROM memories WHERE namespace = ? AND "
                                    + batch.condition()
                                    + " ORDER BY id",
                            namespace,
                            batch));
        }
        return out;
    }

    @Override
    public float[] embedding(String namespace, String id) {
        return column(
                namespace,
                id,
                sql.selectVector("embedding"),
                rs -> sql.readVector(rs, "embedding"),
                new float[0]);
    }

    @Override
    public Optional<List<float[]>> windows(String namespace, String id) {
        return column(
                namespace,
                id,
                "windows",
                rs ->
                        Optional.ofNullable(rs.getBytes("windows"))
                                .map(packed -> MemoryColumns.unpackWindows(packed, dimensions)),
                Optional.empty());
    }

    /** What a column read of one row gives. */
    private interface ColumnReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /**
     * {@code selected} of the memory {@code id}, read by {@code reader}; {@code absent} without it.
     */
    private <T> T column(
            String namespace, String id, String selected, ColumnReader<T> reader, T absent) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + selected
                                            + " FROM memories WHERE namespace = ? AND id = ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, id);
                        try (ResultSet rs = ps.executeQuery()) {
                            return rs.next() ? reader.read(rs) : absent;
                        }
                    }
                });
    }

    @Override
    public List<Memory> needingWindows(String namespace, int limit) {
        // a turn of more than TurnWindows.ABOVE words has at least that many characters more
        return query(
                "SELECT "
                        + MemoryColumns.COLUMNS
                        + " FROM memories WHERE namespace = ? AND deleted = ? AND windows IS NULL"
                        + " AND embedding IS NOT NULL AND source_kind = ? AND session_name <> ''"
                        + " AND length(content) > ? ORDER BY id LIMIT "
                        + limit,
                namespace,
                Boolean.FALSE,
                MemorySource.Kind.CONVERSATION.name(),
                2 * TurnWindows.ABOVE);
    }

    @Override
    public Page<Memory> list(String namespace, MemoryFilter filter, PageRequest page) {
        MemoryWhere filtered = MemoryWhere.of(sql.dialect(), namespace, filter);
        String where = filtered.sql();
        List<Object> args = filtered.args();
        return sql.read(
                c -> {
                    long total;
                    try (PreparedStatement ps =
                            c.prepareStatement("SELECT count(*) FROM memories WHERE " + where)) {
                        bind(ps, args.toArray());
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            total = rs.getLong(1);
                        }
                    }
                    List<Object> pageArgs = new ArrayList<>(args);
                    pageArgs.add(page.after());
                    pageArgs.add(page.limit() + 1);
                    List<Memory> items = new ArrayList<>();
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + MemoryColumns.COLUMNS
                                            + " FROM memories WHERE "
                                            + where
                                            + " AND id > ? ORDER BY id LIMIT ?")) {
                        bind(ps, pageArgs.toArray());
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                items.add(columns.read(rs));
                            }
                        }
                    }
                    if (items.size() > page.limit()) {
                        List<Memory> shown = items.subList(0, page.limit());
                        return new Page<>(
                                shown, total, PageRequest.cursorAfter(shown.getLast().id()));
                    }
                    return new Page<>(items, total, "");
                });
    }

    @Override
    public List<StatusTransition> transitions(String namespace, String id) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT memory_id, from_status, to_status, at, actor, reason"
                                            + " FROM memory_transitions WHERE namespace = ? AND"
                                            + " memory_id = ? ORDER BY seq")) {
                        ps.setString(1, namespace);
                        ps.setString(2, id);
                        List<StatusTransition> out = new ArrayList<>();
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                out.add(
                                        new StatusTransition(
                                                rs.getString("memory_id"),
                                                MemoryStatus.valueOf(rs.getString("from_status")),
                                                MemoryStatus.valueOf(rs.getString("to_status")),
                                                sql.readInstant(rs, "at"),
                                                rs.getString("actor"),
                                                rs.getString("reason")));
                            }
                        }
                        return out;
                    }
                });
    }

    @Override
    public List<Memory> withContentHash(String namespace, String contentHash) {
        return query(
                "SELECT "
                        + MemoryColumns.COLUMNS
                        + " FROM memories WHERE namespace = ? AND content_hash = ? AND deleted = ?"
                        + " ORDER BY id",
                namespace,
                contentHash,
                Boolean.FALSE);
    }

    @Override
    public List<Memory> withConflictKey(String namespace, String conflictKey) {
        if (conflictKey.isBlank()) {
            return List.of();
        }
        return query(
                "SELECT "
                        + MemoryColumns.COLUMNS
                        + " FROM memories WHERE namespace = ? AND conflict_key = ? AND deleted = ?"
                        + " ORDER BY id",
                namespace,
                conflictKey.strip(),
                Boolean.FALSE);
    }

    @Override
    public void forEachLive(String namespace, LiveMemory consumer) {
        sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + MemoryColumns.COLUMNS
                                            + ", "
                                            + sql.selectVector("embedding")
                                            + ", windows FROM memories WHERE namespace = ? AND"
                                            + " deleted = ? ORDER BY id")) {
                        ps.setString(1, namespace);
                        ps.setBoolean(2, false);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                consumer.accept(
                                        columns.read(rs),
                                        sql.readVector(rs, "embedding"),
                                        MemoryColumns.unpackWindows(
                                                rs.getBytes("windows"), dimensions));
                            }
                        }
                    }
                    return null;
                });
    }

    @Override
    public List<Memory> expired(String namespace, Instant now, int limit) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + MemoryColumns.COLUMNS
                                            + " FROM memories WHERE namespace = ? AND status = ?"
                                            + " AND expires_at <= ? AND deleted = ? ORDER BY id"
                                            + " LIMIT ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, MemoryStatus.ACTIVE.name());
                        sql.bindInstant(ps, 3, now);
                        ps.setBoolean(4, false);
                        ps.setInt(5, limit);
                        return collect(ps);
                    }
                });
    }

    @Override
    public List<Memory> needingEmbedding(String namespace, String modelId, int limit) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + MemoryColumns.COLUMNS
                                            + " FROM memories WHERE namespace = ? AND deleted = ?"
                                            + " AND (embedding IS NULL OR embedding_model <> ?)"
                                            + " ORDER BY id LIMIT ?")) {
                        ps.setString(1, namespace);
                        ps.setBoolean(2, false);
                        ps.setString(3, modelId);
                        ps.setInt(4, limit);
                        return collect(ps);
                    }
                });
    }

    @Override
    public List<Memory> overCap(String namespace, String userId, int keep) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + MemoryColumns.COLUMNS
                                            + " FROM memories WHERE namespace = ? AND user_id = ?"
                                            + " AND status = ? AND disabled = ? AND deleted = ?"
                                            + " ORDER BY importance DESC, updated_at DESC, id"
                                            + " DESC")) {
                        ps.setString(1, namespace);
                        ps.setString(2, userId);
                        ps.setString(3, MemoryStatus.ACTIVE.name());
                        ps.setBoolean(4, false);
                        ps.setBoolean(5, false);
                        List<Memory> all = collect(ps);
                        if (all.size() <= keep) {
                            return List.of();
                        }
                        List<Memory> pruned = new ArrayList<>(all.subList(keep, all.size()));
                        java.util.Collections.reverse(pruned);
                        return pruned;
                    }
                });
    }

    @Override
    public List<String> usersOverCap(String namespace, int cap) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT user_id FROM memories WHERE namespace = ? AND status ="
                                            + " ? AND disabled = ? AND deleted = ? GROUP BY"
                                            + " user_id HAVING count(*) > ? ORDER BY user_id")) {
                        ps.setString(1, namespace);
                        ps.setString(2, MemoryStatus.ACTIVE.name());
                        ps.setBoolean(3, false);
                        ps.setBoolean(4, false);
                        ps.setInt(5, cap);
                        List<String> out = new ArrayList<>();
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                out.add(rs.getString(1));
                            }
                        }
                        return out;
                    }
                });
    }

    @Override
    public void recordRecalls(String namespace, Map<String, RecallTally> recalls) {
        if (recalls.isEmpty()) {
            return;
        }
        Map<String, RecallTally> sorted = new TreeMap<>(recalls); // one lock order for every writer
        sql.write(
                namespace,
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "UPDATE memories SET recalled_count = recalled_count + ?,"
                                            + " last_recalled_at = CASE WHEN last_recalled_at < ?"
                                            + " THEN ? ELSE last_recalled_at END"
                                            + " WHERE namespace = ? AND id = ?")) {
                        for (Map.Entry<String, RecallTally> e : sorted.entrySet()) {
                            ps.setInt(1, e.getValue().times());
                            sql.bindInstant(ps, 2, e.getValue().last());
                            sql.bindInstant(ps, 3, e.getValue().last());
                            ps.setString(4, namespace);
                            ps.setString(5, e.getKey());
                            ps.addBatch();
                        }
                        ps.executeBatch();
                    }
                    return null;
                });
    }

    @Override
    public long count(String namespace) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT count(*) FROM memories WHERE namespace = ?")) {
                        ps.setString(1, namespace);
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            return rs.getLong(1);
                        }
                    }
                });
    }

    // ---- helpers --------------------------------------------------------------------------

    private List<Memory> query(String select, Object... args) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps = c.prepareStatement(select)) {
                        bind(ps, args);
                        return collect(ps);
                    }
                });
    }

    private List<Memory> collect(PreparedStatement ps) throws SQLException {
        List<Memory> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(columns.read(rs));
            }
        }
        return out;
    }

    private static void bind(PreparedStatement ps, Object[] args) throws SQLException {
        int index = 1;
        for (Object a : args) {
            switch (a) {
                case String s -> ps.setString(index++, s);
                case Boolean b -> ps.setBoolean(index++, b);
                case Integer n -> ps.setInt(index++, n);
                case OneOf values -> index = values.bind(ps, index);
                default ->
                        throw new IllegalArgumentException(
                                "illegal argument type: " + a.getClass());
            }
        }
    }
}
