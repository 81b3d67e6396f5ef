package dev.cairn.agents.kv;

import dev.cairn.store.Change;
import dev.cairn.store.SqlAccess;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** {@link KeyValueRepository} over {@link SqlAccess}. Thread-safe. */
final class SqlKeyValueRepository implements KeyValueRepository {

    private final SqlAccess sql;
    private final Clock clock;

    SqlKeyValueRepository(SqlAccess sql, Clock clock) {
        this.sql = Objects.requireNonNull(sql, "sql");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public KeyValueEntry put(String namespace, String key, String value, boolean flagged) {
        return restore(namespace, new KeyValueEntry(key, value, flagged, clock.instant()));
    }

    @Override
    public KeyValueEntry restore(String namespace, KeyValueEntry entry) {
        String key = entry.key();
        String value = entry.value();
        boolean flagged = entry.flagged();
        return sql.write(
                namespace,
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "INSERT INTO kv_entries (namespace, key, value, flagged, updated_at)"
                                            + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (namespace, key)"
                                            + " DO UPDATE SET value = excluded.value,"
                                            + " flagged = excluded.flagged,"
                                            + " updated_at = excluded.updated_at")) {
                        ps.setString(1, namespace);
                        ps.setString(2, key);
                        ps.setString(3, value);
                        ps.setBoolean(4, flagged);
                        sql.bindInstant(ps, 5, entry.updatedAt());
                        ps.executeUpdate();
                    }
                    sql.appendChange(c, namespace, Change.Kind.KEY_VALUE, key, Change.Op.UPSERT);
                    return entry;
                });
    }

    @Override
    public Optional<KeyValueEntry> get(String namespace, String key) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT key, value, flagged, updated_at FROM kv_entries"
                                            + " WHERE namespace = ? AND key = ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, key);
                        try (ResultSet rs = ps.executeQuery()) {
                            return rs.next() ? Optional.of(row(rs)) : Optional.empty();
                        }
                    }
                });
    }

    @Override
    public List<KeyValueEntry> list(String namespace, String prefix, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("illegal limit: " + limit + ", must be >= 1");
        }
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT key, value, flagged, updated_at FROM kv_entries"
                                            + " WHERE namespace = ? AND substr(key, 1, ?) = ?"
                                            + " ORDER BY key LIMIT ?")) {
                        ps.setString(1, namespace);
                        ps.setInt(2, prefix.codePointCount(0, prefix.length()));
                        ps.setString(3, prefix);
                        ps.setInt(4, limit);
                        List<KeyValueEntry> out = new ArrayList<>();
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                out.add(row(rs));
                            }
                        }
                        return List.copyOf(out);
                    }
                });
    }

    @Override
    public List<KeyValueEntry> searchable(String namespace) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT key, value, flagged, updated_at FROM kv_entries"
                                            + " WHERE namespace = ? ORDER BY key")) {
                        ps.setString(1, namespace);
                        List<KeyValueEntry> out = new ArrayList<>();
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                out.add(row(rs));
                            }
                        }
                        return List.copyOf(out);
                    }
                });
    }

    @Override
    public int flaggedCount(String namespace) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT COUNT(*) FROM kv_entries"
                                            + " WHERE namespace = ? AND flagged = ?")) {
                        ps.setString(1, namespace);
                        ps.setBoolean(2, true);
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            return rs.getInt(1);
                        }
                    }
                });
    }

    @Override
    public boolean delete(String namespace, String key) {
        return sql.write(
                namespace,
                c -> {
                    int n;
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "DELETE FROM kv_entries WHERE namespace = ? AND key = ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, key);
                        n = ps.executeUpdate();
                    }
                    if (n > 0) {
                        sql.appendChange(
                                c, namespace, Change.Kind.KEY_VALUE, key, Change.Op.DELETE);
                    }
                    return n > 0;
                });
    }

    private KeyValueEntry row(ResultSet rs) throws SQLException {
        return new KeyValueEntry(
                rs.getString("key"),
                rs.getString("value"),
                rs.getBoolean("flagged"),
                sql.readInstant(rs, "updated_at"));
    }
}
