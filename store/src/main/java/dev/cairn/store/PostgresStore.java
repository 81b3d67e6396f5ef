package dev.cairn.store;

import com.pgvector.PGvector;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * The PostgreSQL store: rows and pgvector embeddings in PostgreSQL behind a HikariCP pool (each
 * connection knows pgvector's {@code vector} type). Thread-safe: each call borrows its own
 * connection.
 *
 * <p>The change sequence is an identity column; writers take a transaction-scoped advisory lock
 * just before appending change rows, so sequence values are handed out in commit order and a reader
 * that remembers its last seq never skips a change committed later with a smaller one.
 */
final class PostgresStore extends JdbcStore {

    /** Advisory lock key serialising schema migrations across processes ("cairnmig"). */
    static final long MIGRATION_LOCK = 0x636169726e6d6967L;

    /** Advisory lock key serialising appends to the change sequence ("cairnchg"). */
    static final long CHANGES_LOCK = 0x636169726e636867L;

    private final HikariDataSource pool;

    private PostgresStore(HikariDataSource pool, StoreConfig config) {
        super(config);
        this.pool = pool;
    }

    static PostgresStore open(String jdbcUrl, StoreConfig config) {
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(
                    "illegal PostgreSQL URL: '" + jdbcUrl + "', must start with jdbc:postgresql:");
        }
        HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(jdbcUrl);
        hikari.setMaximumPoolSize(config.maxPoolSize());
        hikari.setMinimumIdle(Math.min(2, config.maxPoolSize()));
        hikari.setPoolName("cairn-postgres");
        hikari.setAutoCommit(true);
        HikariDataSource pool;
        try {
            pool = new HikariDataSource(hikari);
        } catch (RuntimeException e) {
            throw new StoreException(
                    "cannot connect to PostgreSQL: " + e.getMessage(),
                    e.getCause() == null ? e : e.getCause());
        }
        try {
            migrate(pool, config);
            PostgresStore store = new PostgresStore(pool, config);
            store.checkDimensions();
            return store;
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    private static void migrate(HikariDataSource pool, StoreConfig config) {
        var migrations =
                Migrations.load(
                        "postgres", Map.of("dimensions", Integer.toString(config.dimensions())));
        try (Connection c = pool.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_lock(?)")) {
                ps.setLong(1, MIGRATION_LOCK);
                ps.execute();
            }
            try {
                Migrations.apply(c, migrations);
            } finally {
                try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                    ps.setLong(1, MIGRATION_LOCK);
                    ps.execute();
                }
            }
        } catch (SQLException e) {
            throw failure("migrating PostgreSQL schema", e);
        }
    }

    private void checkDimensions() {
        String stored =
                withConnection(
                        c -> {
                            try (Statement s = c.createStatement();
                                    ResultSet rs =
                                            s.executeQuery(
                                                    "SELECT value FROM store_settings"
                                                            + " WHERE key = 'dimensions'")) {
                                return rs.next() ? rs.getString(1) : "";
                            }
                        });
        if (!stored.equals(Integer.toString(config.dimensions()))) {
            throw new IllegalStateException(
                    "database holds "
                            + stored
                            + "-dimensional vectors, configured "
                            + config.dimensions());
        }
    }

    @Override
    SqlAccess.Dialect dialect() {
        return SqlAccess.Dialect.POSTGRES;
    }

    @Override
    public Kind kind() {
        return Kind.POSTGRES;
    }

    @Override
    public void ping() {
        try (Connection c = pool.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT 1")) {
            rs.next();
        } catch (SQLException | RuntimeException e) {
            throw new IllegalStateException("PostgreSQL does not answer: " + e.getMessage(), e);
        }
    }

    @Override
    <T> T withConnection(SqlAccess.SqlWork<T> work) {
        if (pool.isClosed()) {
            throw new IllegalStateException("store is closed");
        }
        try (Connection c = pool.getConnection()) {
            PGvector.registerTypes(c);
            return work.apply(c);
        } catch (SQLException e) {
            throw failure("PostgreSQL store", e);
        }
    }

    @Override
    String namespacedTablesSql() {
        return "SELECT table_name FROM information_schema.columns WHERE column_name = 'namespace'"
                + " AND table_schema = current_schema() ORDER BY table_name";
    }

    /**
     * Nothing to do at once: deleted rows are dead tuples that no query or dump sees, and
     * autovacuum reclaims their space.
     */
    @Override
    public void reclaimDeletedSpace() {}

    @Override
    void closeConnections() {
        pool.close();
    }

    // ---- dialect -----------------------------------------------------------------------

    @Override
    void bindInstant(PreparedStatement ps, int index, Instant value) throws SQLException {
        ps.setObject(index, OffsetDateTime.ofInstant(value, ZoneOffset.UTC));
    }

    @Override
    Instant readInstant(ResultSet rs, String column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant();
    }

    @Override
    void bindJson(PreparedStatement ps, int index, String json) throws SQLException {
        ps.setObject(index, json, Types.OTHER);
    }

    @Override
    void bindVector(PreparedStatement ps, int index, float[] vector) throws SQLException {
        if (vector.length == 0) {
            ps.setNull(index, Types.OTHER);
        } else {
            ps.setObject(index, new PGvector(vector));
        }
    }

    /** pgvector's binary form: the dimensions and an unused field (two bytes each), the floats. */
    @Override
    String selectVector(String column) {
        return "vector_send(" + column + ") AS " + column;
    }

    @Override
    float[] readVector(ResultSet rs, String column) throws SQLException {
        byte[] bytes = rs.getBytes(column);
        if (bytes == null) {
            return new float[0];
        }
        ByteBuffer binary = ByteBuffer.wrap(bytes); // network byte order, big-endian
        float[] vector = new float[Short.toUnsignedInt(binary.getShort())];
        binary.getShort();
        binary.asFloatBuffer().get(vector);
        return vector;
    }

    @Override
    boolean isUniqueViolation(SQLException e) {
        return "23505".equals(e.getSQLState());
    }

    @Override
    String containsIgnoringCase(String column) {
        return "strpos(lower(" + column + "), lower(?)) > 0";
    }

    @Override
    String lockNamespaceSuffix() {
        return " FOR SHARE"; // a concurrent deleteNamespace waits for this write
    }

    @Override
    void beforeChangeLog(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
            ps.setLong(1, CHANGES_LOCK);
            ps.execute();
        }
    }
}
