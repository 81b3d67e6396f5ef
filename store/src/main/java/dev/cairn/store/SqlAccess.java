package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * JDBC access to the store's database for the modules that keep their own tables in it (documents
 * and chunks, memories, conversations, traces, judgements). Each module brings its migrations
 * ({@link Schema}); they form one version sequence, so one store has one schema history. Their rows
 * carry a namespace like every other row. Thread-safe.
 */
public interface SqlAccess {

    /** Which SQL dialect the store speaks. */
    Dialect dialect();

    /** Runs read-only {@code work} in autocommit mode. */
    <T> T read(SqlWork<T> work);

    /**
     * Runs {@code work} in one transaction in {@code namespace}: the namespace must exist ({@link
     * java.util.NoSuchElementException}) and cannot be deleted until the transaction ends.
     */
    <T> T write(String namespace, SqlWork<T> work);

    /** Appends a change row inside a {@link #write} transaction. */
    default void appendChange(
            Connection c, String namespace, Change.Kind kind, String entityId, Change.Op op)
            throws SQLException {
        appendChanges(c, namespace, kind, List.of(entityId), op);
    }

    /** Appends one change row per entity, in order, in one batch, inside a {@link #write}. */
    void appendChanges(
            Connection c,
            String namespace,
            Change.Kind kind,
            Collection<String> entityIds,
            Change.Op op)
            throws SQLException;

    void bindInstant(PreparedStatement ps, int index, Instant value) throws SQLException;

    Instant readInstant(ResultSet rs, String column) throws SQLException;

    /** Binds a JSON text to a JSON column ({@code jsonb} in PostgreSQL, text in SQLite). */
    void bindJson(PreparedStatement ps, int index, String json) throws SQLException;

    /** Binds a vector, SQL NULL when empty. */
    void bindVector(PreparedStatement ps, int index, float[] vector) throws SQLException;

    /** Reads a vector selected as {@link #selectVector} selects it, empty when SQL NULL. */
    float[] readVector(ResultSet rs, String column) throws SQLException;

    /**
     * The select-list item that reads the vector column {@code column}, under its own name, for
     * {@link #readVector}. PostgreSQL sends a {@code vector} as decimal text unless asked for its
     * binary form, and until the JIT has compiled the float parser, parsing the decimals is most of
     * a fresh server's first loads of memories (1,000 vectors of 384: 100-240 ms, 20-50 ms in
     * binary; the same 8-19 ms either way once compiled).
     */
    String selectVector(String column);

    /**
     * A predicate with one parameter: true when the parameter is a substring of {@code column},
     * ignoring case as {@link String#toLowerCase(java.util.Locale) toLowerCase(Locale.ROOT)} does
     * (SQLite's own {@code lower} folds ASCII letters only).
     */
    String containsIgnoringCase(String column);

    /** True when {@code e} reports a unique-constraint violation. */
    boolean isUniqueViolation(SQLException e);

    /** Work on a connection that may throw {@link SQLException}. */
    @FunctionalInterface
    interface SqlWork<T> {
        T apply(Connection c) throws SQLException;
    }

    /** SQL dialects. */
    enum Dialect {
        SQLITE,
        POSTGRES
    }
}
