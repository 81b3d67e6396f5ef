package dev.cairn.store;

import com.fasterxml.jackson.core.type.TypeReference;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** {@link StoredTokens} in a {@link JdbcStore}'s {@code api_tokens} table. Thread-safe. */
final class JdbcStoredTokens implements StoredTokens {

    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};
    private static final String COLUMNS = "name, sha256, roles, namespaces, created_at";

    private final JdbcStore store;

    JdbcStoredTokens(JdbcStore store) {
        this.store = store;
    }

    @Override
    public List<StoredToken> all() {
        return store.read(
                c -> {
                    List<StoredToken> out = new ArrayList<>();
                    try (PreparedStatement ps =
                                    c.prepareStatement(
                                            "SELECT "
                                                    + COLUMNS
                                                    + " FROM api_tokens ORDER BY name");
                            ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            out.add(row(rs));
                        }
                    }
                    return out;
                });
    }

    @Override
    public Optional<StoredToken> byHash(String sha256) {
        return store.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT " + COLUMNS + " FROM api_tokens WHERE sha256 = ?")) {
                        ps.setString(1, sha256);
                        try (ResultSet rs = ps.executeQuery()) {
                            return rs.next() ? Optional.of(row(rs)) : Optional.empty();
                        }
                    }
                });
    }

    @Override
    public void insert(StoredToken token) {
        try {
            store.inTransaction(
                    c -> {
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "INSERT INTO api_tokens ("
                                                + COLUMNS
                                                + ")"
                                                + " VALUES (?, ?, ?, ?, ?)")) {
                            bind(ps, token);
                            ps.executeUpdate();
                        }
                        raiseRevision(c);
                        return null;
                    });
        } catch (StoreException e) {
            if (e.getCause() instanceof SQLException sql && store.isUniqueViolation(sql)) {
                throw new IllegalStateException("token '" + token.name() + "' exists", e);
            }
            throw e;
        }
    }

    @Override
    public int insertMissing(Collection<StoredToken> tokens) {
        if (tokens.isEmpty()) {
            return 0;
        }
        return store.inTransaction(
                c -> {
                    int added = 0;
                    // ON CONFLICT DO NOTHING without a target skips a clash on either unique
                    // column; PostgreSQL and SQLite (3.24+) both read it so
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "INSERT INTO api_tokens ("
                                            + COLUMNS
                                            + ")"
                                            + " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
                        for (StoredToken token : tokens) {
                            bind(ps, token);
                            added += ps.executeUpdate();
                        }
                    }
                    if (added > 0) {
                        raiseRevision(c);
                    }
                    return added;
                });
    }

    @Override
    public boolean delete(String name) {
        return store.inTransaction(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement("DELETE FROM api_tokens WHERE name = ?")) {
                        ps.setString(1, name);
                        if (ps.executeUpdate() == 0) {
                            return false;
                        }
                    }
                    raiseRevision(c);
                    return true;
                });
    }

    @Override
    public long revision() {
        return store.read(
                c -> {
                    try (PreparedStatement ps =
                                    c.prepareStatement(
                                            "SELECT revision FROM api_token_revision WHERE id = 1");
                            ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            throw new StoreException("api_token_revision holds no row", null);
                        }
                        return rs.getLong(1);
                    }
                });
    }

    private void bind(PreparedStatement ps, StoredToken token) throws SQLException {
        ps.setString(1, token.name());
        ps.setString(2, token.sha256());
        store.bindJson(ps, 3, JdbcStore.toJson(token.roles()));
        store.bindJson(ps, 4, JdbcStore.toJson(token.namespaces()));
        store.bindInstant(ps, 5, token.createdAt());
    }

    private static void raiseRevision(Connection c) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "UPDATE api_token_revision SET revision = revision + 1 WHERE id = 1")) {
            ps.executeUpdate();
        }
    }

    private StoredToken row(ResultSet rs) throws SQLException {
        return new StoredToken(
                rs.getString("name"),
                rs.getString("sha256"),
                JdbcStore.fromJson(rs.getString("roles"), STRINGS),
                JdbcStore.fromJson(rs.getString("namespaces"), STRINGS),
                store.readInstant(rs, "created_at"));
    }
}
