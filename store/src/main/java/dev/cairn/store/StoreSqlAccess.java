package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;

/** The {@link SqlAccess} a {@link JdbcStore} hands to the modules that keep their own tables. */
final class StoreSqlAccess implements SqlAccess {

    private final JdbcStore store;

    StoreSqlAccess(JdbcStore store) {
        this.store = store;
    }

    @Override
    public Dialect dialect() {
        return store.dialect();
    }

    @Override
    public <T> T read(SqlWork<T> work) {
        return store.read(work);
    }

    @Override
    public <T> T write(String namespace, SqlWork<T> work) {
        Namespace.requireValidName(namespace);
        return store.inTransaction(
                c -> {
                    store.requireNamespace(c, namespace);
                    return work.apply(c);
                });
    }

    @Override
    public void appendChanges(
            Connection c,
            String namespace,
            Change.Kind kind,
            Collection<String> entityIds,
            Change.Op op)
            throws SQLException {
        store.appendChanges(c, namespace, kind, entityIds, op);
    }

    @Override
    public void bindInstant(PreparedStatement ps, int index, Instant value) throws SQLException {
        store.bindInstant(ps, index, value);
    }

    @Override
    public Instant readInstant(ResultSet rs, String column) throws SQLException {
        return store.readInstant(rs, column);
    }

    @Override
    public void bindJson(PreparedStatement ps, int index, String json) throws SQLException {
        store.bindJson(ps, index, json);
    }

    @Override
    public void bindVector(PreparedStatement ps, int index, float[] vector) throws SQLException {
        store.bindVector(ps, index, vector);
    }

    @Override
    public float[] readVector(ResultSet rs, String column) throws SQLException {
        return store.readVector(rs, column);
    }

    @Override
    public String selectVector(String column) {
        return store.selectVector(column);
    }

    @Override
    public String containsIgnoringCase(String column) {
        return store.containsIgnoringCase(column);
    }

    @Override
    public boolean isUniqueViolation(SQLException e) {
        return store.isUniqueViolation(e);
    }
}
