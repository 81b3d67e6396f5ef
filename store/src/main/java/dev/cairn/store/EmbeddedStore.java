package dev.cairn.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.Function;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The embedded store: one SQLite file in WAL mode with {@code synchronous=FULL}, so a write that
 * returned survives a crash or SIGKILL. Thread-safe: writes are serialised on one connection
 * (SQLite has one writer anyway, and its transactions are IMMEDIATE so other processes wait rather
 * than fail); reads run concurrently on up to {@link StoreConfig#maxPoolSize()} read-only
 * connections, each on a committed snapshot. It has no vector search of its own: the modules scan
 * the vectors they keep in memory (retrieval's dense index, memory's recall).
 */
final class EmbeddedStore extends JdbcStore {

    /** The SQLite file in the data dir. */
    static final String FILE_NAME = "cairn.db";

    /** How long a write waits for another process holding the file's write lock. */
    static final int BUSY_TIMEOUT_MILLIS = 10_000;

    /** What a checkpointed WAL file is truncated to. */
    static final int WAL_SIZE_LIMIT_BYTES = 64 << 20;

    private final ReentrantLock lock = new ReentrantLock();
    private final Path file;
    private final BlockingQueue<Connection> idleReaders;
    private final AtomicInteger readers = new AtomicInteger();
    private volatile boolean closed;
    private Connection connection;

    private EmbeddedStore(Path file, Connection connection, StoreConfig config) {
        super(config);
        this.file = file;
        this.connection = connection;
        this.idleReaders = new ArrayBlockingQueue<>(config.maxPoolSize());
    }

    private static SQLiteConfig sqliteConfig(boolean readOnly) {
        SQLiteConfig sqlite = new SQLiteConfig();
        sqlite.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        sqlite.setJournalMode(SQLiteConfig.JournalMode.WAL);
        sqlite.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        // without a limit the WAL file keeps the size of the largest transaction (a migration, a
        // bulk ingest) after every later checkpoint
        sqlite.setJournalSizeLimit(WAL_SIZE_LIMIT_BYTES);
        sqlite.enforceForeignKeys(true);
        if (readOnly) {
            sqlite.setReadOnly(true);
        } else {
            sqlite.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        }
        return sqlite;
    }

    /** SQLite's primary result code for a locked database. */
    private static final int SQLITE_BUSY = 5;

    static EmbeddedStore open(Path dataDir, StoreConfig config) {
        Path file = dataDir.resolve(FILE_NAME);
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new StoreException("cannot create data dir " + dataDir, e);
        }
        long deadline = System.nanoTime() + BUSY_TIMEOUT_MILLIS * 1_000_000L;
        while (true) {
            try {
                return openOnce(file, config);
            } catch (StoreException e) {
                // A second opener can meet the first one's WAL switch or migration before the
                // busy timeout applies to it: wait for the first and try again.
                if (!isBusy(e) || System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static boolean isBusy(StoreException e) {
        return e.getCause() instanceof SQLException sql
                && (sql.getErrorCode() == SQLITE_BUSY
                        || String.valueOf(sql.getMessage()).contains("SQLITE_BUSY"));
    }

    private static EmbeddedStore openOnce(Path file, StoreConfig config) {
        Connection c = null;
        try {
            c =
                    DriverManager.getConnection(
                            "jdbc:sqlite:" + file, sqliteConfig(false).toProperties());
            Function.create(c, "contains_ci", new ContainsIgnoreCase());
            // Every write goes through this connection: with secure_delete it zeroes what it
            // deletes or moves (an updated row's old cell, a freed page) instead of leaving it in
            // the file's free space, where a forgotten user's words would outlive their rows.
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA secure_delete = ON");
            }
            Migrations.apply(
                    c,
                    Migrations.load(
                            "sqlite", Map.of("dimensions", Integer.toString(config.dimensions()))));
            EmbeddedStore store = new EmbeddedStore(file, c, config);
            store.checkDimensions();
            return store;
        } catch (SQLException e) {
            closeQuietly(c);
            throw failure("opening embedded store " + file, e);
        } catch (RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // already failing
            }
        }
    }

    private void checkDimensions() {
        String stored =
                withConnection(
                        c -> {
                            try (PreparedStatement ps =
                                            c.prepareStatement(
                                                    "SELECT value FROM store_settings"
                                                            + " WHERE key = 'dimensions'");
                                    ResultSet rs = ps.executeQuery()) {
                                return rs.next() ? rs.getString(1) : "";
                            }
                        });
        if (!stored.equals(Integer.toString(config.dimensions()))) {
            close();
            throw new IllegalStateException(
                    "store "
                            + file
                            + " holds "
                            + stored
                            + "-dimensional vectors, configured "
                            + config.dimensions());
        }
    }

    /**
     * Copies the WAL into the database file and truncates it to zero bytes ({@code
     * wal_checkpoint(TRUNCATE)}), so the page images it held, deleted rows' included, are gone. A
     * reader in the middle of a read keeps the checkpoint from finishing: it is tried again until
     * the busy timeout.
     */
    @Override
    public void reclaimDeletedSpace() {
        long deadline = System.nanoTime() + BUSY_TIMEOUT_MILLIS * 1_000_000L;
        while (true) {
            boolean busy =
                    withConnection(
                            c -> {
                                try (Statement s = c.createStatement();
                                        ResultSet rs =
                                                s.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                                    return rs.next() && rs.getInt(1) != 0;
                                }
                            });
            if (!busy) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "the WAL of "
                                + file
                                + " could not be truncated: readers kept it busy for "
                                + BUSY_TIMEOUT_MILLIS
                                + " ms");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted truncating the WAL of " + file, e);
            }
        }
    }

    @Override
    SqlAccess.Dialect dialect() {
        return SqlAccess.Dialect.SQLITE;
    }

    @Override
    public Kind kind() {
        return Kind.EMBEDDED;
    }

    @Override
    public void ping() {
        try {
            withConnection(
                    c -> {
                        try (PreparedStatement ps = c.prepareStatement("SELECT 1");
                                ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            return null;
                        }
                    });
        } catch (StoreException e) {
            throw new IllegalStateException("embedded store " + file + " does not answer", e);
        }
    }

    @Override
    <T> T withConnection(SqlAccess.SqlWork<T> work) {
        lock.lock();
        try {
            if (connection == null) {
                throw new IllegalStateException("store is closed: " + file);
            }
            return work.apply(connection);
        } catch (SQLException e) {
            throw failure("embedded store", e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    <T> T read(SqlAccess.SqlWork<T> work) {
        Connection reader = borrowReader();
        try {
            return work.apply(reader);
        } catch (SQLException e) {
            throw failure("embedded store", e);
        } finally {
            giveBack(reader);
        }
    }

    private Connection borrowReader() {
        if (closed) {
            throw new IllegalStateException("store is closed: " + file);
        }
        Connection reader = idleReaders.poll();
        if (reader != null) {
            return reader;
        }
        if (readers.incrementAndGet() <= config.maxPoolSize()) {
            try {
                Connection c =
                        DriverManager.getConnection(
                                "jdbc:sqlite:" + file, sqliteConfig(true).toProperties());
                Function.create(c, "contains_ci", new ContainsIgnoreCase());
                return c;
            } catch (SQLException e) {
                readers.decrementAndGet();
                throw failure("opening a reader on " + file, e);
            }
        }
        readers.decrementAndGet();
        try {
            reader = idleReaders.poll(BUSY_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for a reader on " + file, e);
        }
        if (reader == null) {
            throw new IllegalStateException(
                    "no reader free on " + file + " after " + BUSY_TIMEOUT_MILLIS + " ms");
        }
        return reader;
    }

    private void giveBack(Connection reader) {
        if (closed || !idleReaders.offer(reader)) {
            closeQuietly(reader);
        } else if (closed) {
            closeIdleReaders();
        }
    }

    private void closeIdleReaders() {
        Connection reader;
        while ((reader = idleReaders.poll()) != null) {
            closeQuietly(reader);
        }
    }

    @Override
    void closeConnections() {
        closed = true;
        closeIdleReaders();
        lock.lock();
        try {
            if (connection != null) {
                connection.close();
                connection = null;
            }
        } catch (SQLException e) {
            throw failure("closing embedded store " + file, e);
        } finally {
            lock.unlock();
        }
    }

    // ---- dialect -----------------------------------------------------------------------

    @Override
    void bindInstant(PreparedStatement ps, int index, Instant value) throws SQLException {
        ps.setLong(index, value.toEpochMilli());
    }

    @Override
    Instant readInstant(ResultSet rs, String column) throws SQLException {
        return Instant.ofEpochMilli(rs.getLong(column));
    }

    @Override
    void bindJson(PreparedStatement ps, int index, String json) throws SQLException {
        ps.setString(index, json);
    }

    @Override
    void bindVector(PreparedStatement ps, int index, float[] vector) throws SQLException {
        if (vector.length == 0) {
            ps.setNull(index, java.sql.Types.BLOB);
            return;
        }
        ByteBuffer buffer =
                ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asFloatBuffer().put(vector);
        ps.setBytes(index, buffer.array());
    }

    @Override
    float[] readVector(ResultSet rs, String column) throws SQLException {
        byte[] bytes = rs.getBytes(column);
        if (bytes == null) {
            return new float[0];
        }
        float[] vector = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(vector);
        return vector;
    }

    @Override
    String selectVector(String column) {
        return column; // a BLOB of little-endian floats already
    }

    @Override
    boolean isUniqueViolation(SQLException e) {
        return e instanceof SQLiteException s
                && (s.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY
                        || s.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE);
    }

    @Override
    String containsIgnoringCase(String column) {
        return "contains_ci(" + column + ", ?) = 1";
    }

    @Override
    String namespacedTablesSql() {
        return "SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) p"
                + " WHERE m.type = 'table' AND p.name = 'namespace' ORDER BY m.name";
    }

    @Override
    String lockNamespaceSuffix() {
        return ""; // immediate transactions already hold the write lock
    }

    @Override
    void beforeChangeLog(Connection c) {
        // SQLite has one writer at a time: AUTOINCREMENT order is commit order.
    }

    /** {@code contains_ci(haystack, needle)}: 1 when needle is a case-insensitive substring. */
    private static final class ContainsIgnoreCase extends Function {
        @Override
        protected void xFunc() throws SQLException {
            String haystack = value_text(0);
            String needle = value_text(1);
            boolean found =
                    haystack != null
                            && needle != null
                            && haystack.toLowerCase(Locale.ROOT)
                                    .contains(needle.toLowerCase(Locale.ROOT));
            result(found ? 1 : 0);
        }
    }
}
