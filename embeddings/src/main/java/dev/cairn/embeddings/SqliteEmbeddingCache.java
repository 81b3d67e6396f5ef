package dev.cairn.embeddings;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * {@link EmbeddingCache} in one SQLite table {@code embedding_cache(model, sha256, vector)}, the
 * vector as little-endian float32 bytes. Thread-safe: one connection, used under this object's lock
 * (SQLite serialises writers anyway); WAL journal so readers in other processes are not blocked.
 */
final class SqliteEmbeddingCache implements EmbeddingCache {

    private final Connection connection;
    private final Path file;

    private SqliteEmbeddingCache(Connection connection, Path file) {
        this.connection = connection;
        this.file = file;
    }

    static SqliteEmbeddingCache open(Path file) {
        if (file == null) {
            throw new IllegalArgumentException("illegal file: null");
        }
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create directory for " + file, e);
        }
        try {
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=NORMAL");
                s.execute(
                        "CREATE TABLE IF NOT EXISTS embedding_cache (model TEXT NOT NULL, sha256"
                                + " TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model,"
                                + " sha256)) WITHOUT ROWID");
            }
            return new SqliteEmbeddingCache(c, file);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open embedding cache " + file, e);
        }
    }

    @Override
    public synchronized Map<Key, float[]> getAll(Collection<Key> keys) {
        Map<Key, float[]> found = new HashMap<>();
        try (PreparedStatement select =
                connection.prepareStatement(
                        "SELECT vector FROM embedding_cache WHERE model = ? AND sha256 = ?")) {
            for (Key key : keys) {
                select.setString(1, key.model());
                select.setString(2, key.sha256());
                try (ResultSet rs = select.executeQuery()) {
                    if (rs.next()) {
                        found.put(key, decode(rs.getBytes(1)));
                    }
                }
            }
            return found;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read embedding cache " + file, e);
        }
    }

    @Override
    public synchronized void putAll(Map<Key, float[]> vectors) {
        if (vectors.isEmpty()) {
            return;
        }
        try {
            connection.setAutoCommit(false);
            try (PreparedStatement insert =
                    connection.prepareStatement(
                            "INSERT OR REPLACE INTO embedding_cache (model, sha256, vector)"
                                    + " VALUES (?, ?, ?)")) {
                for (Map.Entry<Key, float[]> e : vectors.entrySet()) {
                    insert.setString(1, e.getKey().model());
                    insert.setString(2, e.getKey().sha256());
                    insert.setBytes(3, encode(e.getValue()));
                    insert.addBatch();
                }
                insert.executeBatch();
                connection.commit();
            } catch (SQLException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot write embedding cache " + file, e);
        }
    }

    @Override
    public synchronized long size() {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM embedding_cache")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read embedding cache " + file, e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot close embedding cache " + file, e);
        }
    }

    private static byte[] encode(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(v);
        return b.array();
    }

    private static float[] decode(byte[] bytes) {
        float[] v = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }
}
