package dev.cairn.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The SQL both backends share; subclasses supply connections and the dialect's types. Thread-safe
 * when {@link #withConnection} hands each caller its own connection (or serialises them).
 */
abstract class JdbcStore implements Store {

    /**
     * Every table with rows of a namespace, children before parents: deleting a namespace empties
     * them all. A migration that adds a namespaced table adds it here.
     */
    /** Most ids bound in one {@code IN (...)} list. */
    static final int IN_BATCH = 500;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> STRING_LIST = new TypeReference<>() {};
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

    private static final String DOCUMENT_COLUMNS =
            "namespace, id, version, title, format, source, authority, tags, metadata, content,"
                    + " content_hash, created_at, updated_at";
    private static final String CHUNK_COLUMNS =
            "namespace, id, document_id, ordinal, heading_path, text, token_count, embedding,"
                    + " embedding_model";

    protected final StoreConfig config;
    private final ChangeLog changeLog;

    JdbcStore(StoreConfig config) {
        this.config = config;
        this.changeLog = new ChangeLog(this, config.catchUpInterval());
    }

    @Override
    public final ChangeLog changeLog() {
        return changeLog;
    }

    /** Closes the connections; {@link #close()} has stopped the change log first. */
    abstract void closeConnections();

    @Override
    public final void close() {
        try {
            changeLog.close();
        } finally {
            closeConnections();
        }
    }

    // ---- what backends supply ----------------------------------------------------------

    /** Runs {@code work} on a connection in autocommit mode; writes go through here. */
    abstract <T> T withConnection(SqlAccess.SqlWork<T> work);

    /** Runs read-only {@code work} in autocommit mode; by default as {@link #withConnection}. */
    <T> T read(SqlAccess.SqlWork<T> work) {
        return withConnection(work);
    }

    abstract void bindInstant(PreparedStatement ps, int index, Instant value) throws SQLException;

    abstract Instant readInstant(ResultSet rs, String column) throws SQLException;

    abstract void bindJson(PreparedStatement ps, int index, String json) throws SQLException;

    /** Binds a vector, SQL NULL when empty. */
    abstract void bindVector(PreparedStatement ps, int index, float[] vector) throws SQLException;

    /** Reads a vector, empty when SQL NULL. */
    abstract float[] readVector(ResultSet rs, String column) throws SQLException;

    abstract boolean isUniqueViolation(SQLException e);

    /** A predicate on {@code title} with one parameter: case-insensitive substring. */
    abstract String titleContainsSql();

    /** Appended to the namespace existence check inside a write transaction. */
    abstract String lockNamespaceSuffix();

    /**
     * SQL listing the tables whose rows carry a {@code namespace} column: every module's tables,
     * whichever modules made them, so deleting a namespace reaches all of them.
     */
    abstract String namespacedTablesSql();

    /** Called in a write transaction just before change rows are inserted. */
    abstract void beforeChangeLog(Connection c) throws SQLException;

    // ---- SQL access for other modules -------------------------------------------------

    /** Backend dialect for {@link SqlAccess}. */
    abstract SqlAccess.Dialect dialect();

    @Override
    public SqlAccess sql() {
        return sqlAccess;
    }

    private final SqlAccess sqlAccess =
            new SqlAccess() {
                @Override
                public Dialect dialect() {
                    return JdbcStore.this.dialect();
                }

                @Override
                public <T> T read(SqlWork<T> work) {
                    return JdbcStore.this.read(work);
                }

                @Override
                public <T> T write(String namespace, SqlWork<T> work) {
                    Namespace.requireValidName(namespace);
                    return inTransaction(
                            c -> {
                                requireNamespace(c, namespace);
                                return work.apply(c);
                            });
                }

                @Override
                public void appendChange(
                        Connection c,
                        String namespace,
                        Change.Kind kind,
                        String entityId,
                        Change.Op op)
                        throws SQLException {
                    JdbcStore.this.appendChange(c, namespace, kind, entityId, op);
                }

                @Override
                public void bindInstant(PreparedStatement ps, int index, Instant value)
                        throws SQLException {
                    JdbcStore.this.bindInstant(ps, index, value);
                }

                @Override
                public Instant readInstant(ResultSet rs, String column) throws SQLException {
                    return JdbcStore.this.readInstant(rs, column);
                }

                @Override
                public void bindJson(PreparedStatement ps, int index, String json)
                        throws SQLException {
                    JdbcStore.this.bindJson(ps, index, json);
                }

                @Override
                public void bindVector(PreparedStatement ps, int index, float[] vector)
                        throws SQLException {
                    JdbcStore.this.bindVector(ps, index, vector);
                }

                @Override
                public float[] readVector(ResultSet rs, String column) throws SQLException {
                    return JdbcStore.this.readVector(rs, column);
                }

                @Override
                public boolean isUniqueViolation(SQLException e) {
                    return JdbcStore.this.isUniqueViolation(e);
                }
            };

    // ---- transactions ------------------------------------------------------------------

    <T> T inTransaction(SqlAccess.SqlWork<T> work) {
        return withConnection(
                c -> {
                    c.setAutoCommit(false);
                    try {
                        T result = work.apply(c);
                        c.commit();
                        return result;
                    } catch (SQLException | RuntimeException | Error e) {
                        try {
                            c.rollback();
                        } catch (SQLException suppressed) {
                            e.addSuppressed(suppressed);
                        }
                        throw e;
                    } finally {
                        c.setAutoCommit(true);
                    }
                });
    }

    static StoreException failure(String what, SQLException e) {
        return new StoreException(what + " failed: " + e.getMessage(), e);
    }

    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

    @Override
    public StoreConfig config() {
        return config;
    }

    // ---- namespaces --------------------------------------------------------------------

    @Override
    public Namespace createNamespace(String name, String description) {
        Namespace ns = new Namespace(name, description, now());
        try {
            return inTransaction(
                    c -> {
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "INSERT INTO namespaces (name, description, created_at)"
                                                + " VALUES (?, ?, ?)")) {
                            ps.setString(1, ns.name());
                            ps.setString(2, ns.description());
                            bindInstant(ps, 3, ns.createdAt());
                            ps.executeUpdate();
                        }
                        appendChange(c, name, Change.Kind.NAMESPACE, name, Change.Op.UPSERT);
                        return ns;
                    });
        } catch (StoreException e) {
            if (e.getCause() instanceof SQLException sql && isUniqueViolation(sql)) {
                throw new IllegalStateException("namespace exists: " + name, e);
            }
            throw e;
        }
    }

    @Override
    public Optional<Namespace> namespace(String name) {
        Namespace.requireValidName(name);
        return read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT name, description, created_at FROM namespaces"
                                            + " WHERE name = ?")) {
                        ps.setString(1, name);
                        try (ResultSet rs = ps.executeQuery()) {
                            return rs.next() ? Optional.of(namespaceRow(rs)) : Optional.empty();
                        }
                    }
                });
    }

    @Override
    public Page<Namespace> namespaces(PageRequest page) {
        String after = decodeCursor(page.cursor());
        return read(
                c -> {
                    long total;
                    try (PreparedStatement ps =
                                    c.prepareStatement("SELECT count(*) FROM namespaces");
                            ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        total = rs.getLong(1);
                    }
                    List<Namespace> items = new ArrayList<>();
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT name, description, created_at FROM namespaces"
                                            + " WHERE name > ? ORDER BY name LIMIT ?")) {
                        ps.setString(1, after);
                        ps.setInt(2, page.limit() + 1);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                items.add(namespaceRow(rs));
                            }
                        }
                    }
                    return page(items, total, page.limit(), Namespace::name);
                });
    }

    private Namespace namespaceRow(ResultSet rs) throws SQLException {
        return new Namespace(
                rs.getString("name"), rs.getString("description"), readInstant(rs, "created_at"));
    }

    @Override
    public boolean deleteNamespace(String name) {
        Namespace.requireValidName(name);
        return inTransaction(
                c -> {
                    // Deleting the row first waits for writers holding it (FOR SHARE); ON DELETE
                    // CASCADE then removes the namespace's rows, and the explicit deletes make
                    // sure of it whatever the connection's foreign-key setting.
                    int deleted;
                    try (PreparedStatement ps =
                            c.prepareStatement("DELETE FROM namespaces WHERE name = ?")) {
                        ps.setString(1, name);
                        deleted = ps.executeUpdate();
                    }
                    if (deleted == 0) {
                        return false;
                    }
                    List<String> tables = new ArrayList<>();
                    try (PreparedStatement ps = c.prepareStatement(namespacedTablesSql());
                            ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            tables.add(rs.getString(1));
                        }
                    }
                    tables.remove("changes"); // emptied below, then the DELETE is appended
                    for (String table : tables) {
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "DELETE FROM " + table + " WHERE namespace = ?")) {
                            ps.setString(1, name);
                            ps.executeUpdate();
                        }
                    }
                    try (PreparedStatement ps =
                            c.prepareStatement("DELETE FROM changes WHERE namespace = ?")) {
                        ps.setString(1, name);
                        ps.executeUpdate();
                    }
                    appendChange(c, name, Change.Kind.NAMESPACE, name, Change.Op.DELETE);
                    return true;
                });
    }

    // ---- documents ---------------------------------------------------------------------

    @Override
    public StoredDocument replaceDocument(
            String namespace, DocumentDraft document, List<ChunkDraft> chunks) {
        Namespace.requireValidName(namespace);
        List<ChunkDraft> drafts = List.copyOf(chunks);
        Instant now = now();
        String hash = Migrations.sha256(document.content());
        String tags = toJson(document.tags());
        String metadata = toJson(new TreeMap<>(document.metadata()));
        return inTransaction(
                c -> {
                    requireNamespace(c, namespace);
                    long version;
                    Instant createdAt;
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "INSERT INTO documents ("
                                            + DOCUMENT_COLUMNS
                                            + ") VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                                            + " ON CONFLICT (namespace, id) DO UPDATE SET"
                                            + " version = documents.version + 1,"
                                            + " title = excluded.title, format = excluded.format,"
                                            + " source = excluded.source,"
                                            + " authority = excluded.authority,"
                                            + " tags = excluded.tags, metadata = excluded.metadata,"
                                            + " content = excluded.content,"
                                            + " content_hash = excluded.content_hash,"
                                            + " updated_at = excluded.updated_at"
                                            + " RETURNING version, created_at")) {
                        int i = 1;
                        ps.setString(i++, namespace);
                        ps.setString(i++, document.id());
                        ps.setString(i++, document.title());
                        ps.setString(i++, document.format().name());
                        ps.setString(i++, document.source());
                        ps.setString(i++, document.authority().name());
                        bindJson(ps, i++, tags);
                        bindJson(ps, i++, metadata);
                        ps.setString(i++, document.content());
                        ps.setString(i++, hash);
                        bindInstant(ps, i++, now);
                        bindInstant(ps, i, now);
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            version = rs.getLong("version");
                            createdAt = readInstant(rs, "created_at");
                        }
                    }
                    // After the upsert, which holds the document's row lock: a concurrent replace
                    // of the same document waits here and then sees this one's chunks.
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "DELETE FROM chunks WHERE namespace = ? AND document_id = ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, document.id());
                        ps.executeUpdate();
                    }
                    insertChunks(c, namespace, document.id(), drafts);
                    appendChange(
                            c, namespace, Change.Kind.DOCUMENT, document.id(), Change.Op.UPSERT);
                    return new StoredDocument(
                            namespace,
                            document.id(),
                            version,
                            document.title(),
                            document.format(),
                            document.source(),
                            document.authority(),
                            document.tags(),
                            document.metadata(),
                            document.content(),
                            hash,
                            createdAt,
                            now);
                });
    }

    private void insertChunks(
            Connection c, String namespace, String documentId, List<ChunkDraft> drafts)
            throws SQLException {
        if (drafts.isEmpty()) {
            return;
        }
        Set<Integer> ordinals = new HashSet<>();
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO chunks ("
                                + CHUNK_COLUMNS
                                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            int batched = 0;
            for (ChunkDraft chunk : drafts) {
                // Checked while writing: a bad chunk rolls back what was already written.
                if (!ordinals.add(chunk.ordinal())) {
                    throw new IllegalArgumentException(
                            "illegal chunk ordinal: "
                                    + chunk.ordinal()
                                    + " of document "
                                    + documentId
                                    + " appears twice, must be unique");
                }
                float[] vector = chunk.embedding();
                if (vector.length != 0 && vector.length != config.dimensions()) {
                    throw new IllegalArgumentException(
                            "illegal embedding dimension: "
                                    + vector.length
                                    + " in chunk "
                                    + chunk.ordinal()
                                    + " of document "
                                    + documentId
                                    + ", must be "
                                    + config.dimensions()
                                    + " or 0");
                }
                int i = 1;
                ps.setString(i++, namespace);
                ps.setString(i++, StoredChunk.chunkId(documentId, chunk.ordinal()));
                ps.setString(i++, documentId);
                ps.setInt(i++, chunk.ordinal());
                bindJson(ps, i++, toJson(chunk.headingPath()));
                ps.setString(i++, chunk.text());
                ps.setInt(i++, chunk.tokenCount());
                bindVector(ps, i++, vector);
                ps.setString(i, chunk.embeddingModel());
                ps.addBatch();
                if (++batched % IN_BATCH == 0) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
        }
    }

    void requireNamespace(Connection c, String namespace) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT 1 FROM namespaces WHERE name = ?" + lockNamespaceSuffix())) {
            ps.setString(1, namespace);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new NoSuchElementException("no such namespace: " + namespace);
                }
            }
        }
    }

    @Override
    public Optional<StoredDocument> document(String namespace, String id) {
        Namespace.requireValidName(namespace);
        return read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + DOCUMENT_COLUMNS
                                            + " FROM documents WHERE namespace = ? AND id = ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, id);
                        try (ResultSet rs = ps.executeQuery()) {
                            return rs.next() ? Optional.of(documentRow(rs)) : Optional.empty();
                        }
                    }
                });
    }

    @Override
    public Page<StoredDocument> documents(String namespace, PageRequest page, String titleQuery) {
        Namespace.requireValidName(namespace);
        String after = decodeCursor(page.cursor());
        boolean filter = !titleQuery.isEmpty();
        String where = "namespace = ?" + (filter ? " AND " + titleContainsSql() : "");
        return read(
                c -> {
                    long total;
                    try (PreparedStatement ps =
                            c.prepareStatement("SELECT count(*) FROM documents WHERE " + where)) {
                        ps.setString(1, namespace);
                        if (filter) {
                            ps.setString(2, titleQuery);
                        }
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            total = rs.getLong(1);
                        }
                    }
                    List<StoredDocument> items = new ArrayList<>();
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + DOCUMENT_COLUMNS
                                            + " FROM documents WHERE "
                                            + where
                                            + " AND id > ? ORDER BY id LIMIT ?")) {
                        int i = 1;
                        ps.setString(i++, namespace);
                        if (filter) {
                            ps.setString(i++, titleQuery);
                        }
                        ps.setString(i++, after);
                        ps.setInt(i, page.limit() + 1);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                items.add(documentRow(rs));
                            }
                        }
                    }
                    return page(items, total, page.limit(), StoredDocument::id);
                });
    }

    private StoredDocument documentRow(ResultSet rs) throws SQLException {
        return new StoredDocument(
                rs.getString("namespace"),
                rs.getString("id"),
                rs.getLong("version"),
                rs.getString("title"),
                DocumentFormat.valueOf(rs.getString("format")),
                rs.getString("source"),
                Authority.valueOf(rs.getString("authority")),
                fromJson(rs.getString("tags"), STRING_LIST),
                fromJson(rs.getString("metadata"), STRING_MAP),
                rs.getString("content"),
                rs.getString("content_hash"),
                readInstant(rs, "created_at"),
                readInstant(rs, "updated_at"));
    }

    @Override
    public boolean deleteDocument(String namespace, String id) {
        Namespace.requireValidName(namespace);
        return inTransaction(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "DELETE FROM chunks WHERE namespace = ? AND document_id = ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, id);
                        ps.executeUpdate();
                    }
                    int deleted;
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "DELETE FROM documents WHERE namespace = ? AND id = ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, id);
                        deleted = ps.executeUpdate();
                    }
                    if (deleted == 0) {
                        return false;
                    }
                    appendChange(c, namespace, Change.Kind.DOCUMENT, id, Change.Op.DELETE);
                    return true;
                });
    }

    // ---- chunks ------------------------------------------------------------------------

    @Override
    public List<StoredChunk> chunks(String namespace, String documentId) {
        Namespace.requireValidName(namespace);
        return read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + CHUNK_COLUMNS
                                            + " FROM chunks"
                                            + " WHERE namespace = ? AND document_id = ?"
                                            + " ORDER BY ordinal")) {
                        ps.setString(1, namespace);
                        ps.setString(2, documentId);
                        return chunkRows(ps);
                    }
                });
    }

    @Override
    public List<StoredChunk> chunks(String namespace, Collection<String> chunkIds) {
        Namespace.requireValidName(namespace);
        List<String> ids = List.copyOf(new LinkedHashSet<>(chunkIds));
        if (ids.isEmpty()) {
            return List.of();
        }
        Map<String, StoredChunk> found = new HashMap<>();
        read(
                c -> {
                    for (int from = 0; from < ids.size(); from += IN_BATCH) {
                        List<String> batch =
                                ids.subList(from, Math.min(ids.size(), from + IN_BATCH));
                        String marks =
                                String.join(", ", java.util.Collections.nCopies(batch.size(), "?"));
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "SELECT "
                                                + CHUNK_COLUMNS
                                                + " FROM chunks"
                                                + " WHERE namespace = ? AND id IN ("
                                                + marks
                                                + ")")) {
                            ps.setString(1, namespace);
                            for (int i = 0; i < batch.size(); i++) {
                                ps.setString(i + 2, batch.get(i));
                            }
                            for (StoredChunk chunk : chunkRows(ps)) {
                                found.put(chunk.id(), chunk);
                            }
                        }
                    }
                    return null;
                });
        List<StoredChunk> out = new ArrayList<>(found.size());
        for (String id : ids) {
            StoredChunk chunk = found.get(id);
            if (chunk != null) {
                out.add(chunk);
            }
        }
        return out;
    }

    private List<StoredChunk> chunkRows(PreparedStatement ps) throws SQLException {
        List<StoredChunk> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(
                        new StoredChunk(
                                rs.getString("namespace"),
                                rs.getString("id"),
                                rs.getString("document_id"),
                                rs.getInt("ordinal"),
                                fromJson(rs.getString("heading_path"), STRING_LIST),
                                rs.getString("text"),
                                rs.getInt("token_count"),
                                readVector(rs, "embedding"),
                                rs.getString("embedding_model")));
            }
        }
        return out;
    }

    @Override
    public long chunkCount(String namespace) {
        Namespace.requireValidName(namespace);
        return count("SELECT count(*) FROM chunks WHERE namespace = ?", namespace);
    }

    @Override
    public boolean hasEmbeddedChunks(String namespace, long atLeast) {
        return count(
                        "SELECT count(*) FROM (SELECT 1 FROM chunks WHERE namespace = ?"
                                + " AND embedding IS NOT NULL LIMIT ?) AS bounded",
                        namespace,
                        atLeast)
                >= atLeast;
    }

    private long count(String sql, String namespace, long... limits) {
        return read(
                c -> {
                    try (PreparedStatement ps = c.prepareStatement(sql)) {
                        ps.setString(1, namespace);
                        for (int i = 0; i < limits.length; i++) {
                            ps.setLong(i + 2, limits[i]);
                        }
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                            return rs.getLong(1);
                        }
                    }
                });
    }

    @Override
    public void forEachEmbedding(String namespace, BiConsumer<String, float[]> consumer) {
        Namespace.requireValidName(namespace);
        read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT id, embedding FROM chunks WHERE namespace = ?"
                                            + " AND embedding IS NOT NULL ORDER BY id")) {
                        ps.setFetchSize(1000);
                        ps.setString(1, namespace);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                consumer.accept(rs.getString("id"), readVector(rs, "embedding"));
                            }
                        }
                    }
                    return null;
                });
    }

    // ---- change sequence ---------------------------------------------------------------

    void appendChange(
            Connection c, String namespace, Change.Kind kind, String entityId, Change.Op op)
            throws SQLException {
        beforeChangeLog(c);
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO changes (namespace, kind, entity_id, op, at)"
                                + " VALUES (?, ?, ?, ?, ?)")) {
            ps.setString(1, namespace);
            ps.setString(2, kind.name());
            ps.setString(3, entityId);
            ps.setString(4, op.name());
            bindInstant(ps, 5, now());
            ps.executeUpdate();
        }
    }

    @Override
    public List<Change> changesSince(long afterSeq, int limit) {
        if (afterSeq < 0) {
            throw new IllegalArgumentException("illegal afterSeq: " + afterSeq + ", must be >= 0");
        }
        if (limit < 1 || limit > PageRequest.MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "illegal limit: " + limit + ", must be in [1, " + PageRequest.MAX_LIMIT + "]");
        }
        return read(
                c -> {
                    List<Change> out = new ArrayList<>();
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT seq, namespace, kind, entity_id, op, at FROM changes"
                                            + " WHERE seq > ? ORDER BY seq LIMIT ?")) {
                        ps.setLong(1, afterSeq);
                        ps.setInt(2, limit);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                out.add(
                                        new Change(
                                                rs.getLong("seq"),
                                                rs.getString("namespace"),
                                                Change.Kind.valueOf(rs.getString("kind")),
                                                rs.getString("entity_id"),
                                                Change.Op.valueOf(rs.getString("op")),
                                                readInstant(rs, "at")));
                            }
                        }
                    }
                    return out;
                });
    }

    @Override
    public long lastChangeSeq() {
        return read(
                c -> {
                    try (PreparedStatement ps =
                                    c.prepareStatement(
                                            "SELECT coalesce(max(seq), 0) FROM changes");
                            ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        return rs.getLong(1);
                    }
                });
    }

    // ---- dense search helpers ----------------------------------------------------------

    /** Validates a query vector; answers its Euclidean norm. */
    final double requireQuery(float[] query, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("illegal k: " + k + ", must be >= 1");
        }
        if (query.length != config.dimensions()) {
            throw new IllegalArgumentException(
                    "illegal query dimension: "
                            + query.length
                            + ", must be "
                            + config.dimensions());
        }
        Records.requireFinite(query, "query");
        double norm = 0;
        for (float v : query) {
            norm += (double) v * v;
        }
        if (norm == 0) {
            throw new IllegalArgumentException("illegal query: all zeros, must have a direction");
        }
        return Math.sqrt(norm);
    }

    // ---- paging and JSON ---------------------------------------------------------------

    private static <T> Page<T> page(
            List<T> rows, long total, int limit, java.util.function.Function<T, String> key) {
        if (rows.size() <= limit) {
            return new Page<>(rows, total, "");
        }
        List<T> items = rows.subList(0, limit);
        return new Page<>(items, total, encodeCursor(key.apply(items.get(limit - 1))));
    }

    static String encodeCursor(String lastKey) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(("k:" + lastKey).getBytes(StandardCharsets.UTF_8));
    }

    /** The key after which a page starts; "" for the first page. */
    static String decodeCursor(String cursor) {
        if (cursor.isEmpty()) {
            return "";
        }
        try {
            String decoded =
                    new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (decoded.startsWith("k:")) {
                return decoded.substring(2);
            }
        } catch (IllegalArgumentException e) {
            // fall through
        }
        throw new IllegalArgumentException(
                "illegal cursor: '" + cursor + "', must be a nextCursor of a previous page");
    }

    static String toJson(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    static <T> T fromJson(String json, TypeReference<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is corrupt: " + e.getMessage(), e);
        }
    }
}
