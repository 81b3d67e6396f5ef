package dev.cairn.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * The SQL both backends share; subclasses supply connections and the dialect's types. Thread-safe
 * when {@link #withConnection} hands each caller its own connection (or serialises them).
 *
 * <p>Why one class of about 500 lines: it is the {@link Store} contract's one implementation for
 * both dialects, one short method per operation, each a statement or two; splitting it by topic
 * would spread one transaction discipline (every write appends its change in the same transaction)
 * over several classes that each need the connection and the change log.
 */
abstract class JdbcStore implements Store {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final TypeReference<java.util.LinkedHashMap<String, Long>> COUNT_MAP =
            new TypeReference<>() {};

    protected final StoreConfig config;
    private final ChangeLog changeLog;
    private volatile String instanceId; // read once: it never changes

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

    /** {@link SqlAccess#selectVector}. */
    abstract String selectVector(String column);

    abstract boolean isUniqueViolation(SQLException e);

    /** {@link SqlAccess#containsIgnoringCase}. */
    abstract String containsIgnoringCase(String column);

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

    private final SqlAccess sqlAccess = new StoreSqlAccess(this);

    private final StoredTokens tokens = new JdbcStoredTokens(this);

    @Override
    public StoredTokens tokens() {
        return tokens;
    }

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
    public Namespace createNamespace(
            String name, String description, Namespace.RecallScope recallScope) {
        Namespace ns = new Namespace(name, description, now(), recallScope);
        try {
            return inTransaction(
                    c -> {
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "INSERT INTO namespaces (name, description, created_at,"
                                                + " recall_scope) VALUES (?, ?, ?, ?)")) {
                            ps.setString(1, ns.name());
                            ps.setString(2, ns.description());
                            bindInstant(ps, 3, ns.createdAt());
                            ps.setString(4, ns.recallScope().label());
                            ps.executeUpdate();
                        }
                        sqlAccess.appendChange(
                                c, name, Change.Kind.NAMESPACE, name, Change.Op.UPSERT);
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
                                    "SELECT name, description, created_at, recall_scope"
                                            + " FROM namespaces WHERE name = ?")) {
                        ps.setString(1, name);
                        try (ResultSet rs = ps.executeQuery()) {
                            return rs.next() ? Optional.of(namespaceRow(rs)) : Optional.empty();
                        }
                    }
                });
    }

    @Override
    public Page<Namespace> namespaces(PageRequest page) {
        String after = page.after();
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
                                    "SELECT name, description, created_at, recall_scope"
                                            + " FROM namespaces WHERE name > ? ORDER BY name"
                                            + " LIMIT ?")) {
                        ps.setString(1, after);
                        ps.setInt(2, page.limit() + 1);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                items.add(namespaceRow(rs));
                            }
                        }
                    }
                    return Page.ofLookahead(items, total, page.limit(), Namespace::name);
                });
    }

    private Namespace namespaceRow(ResultSet rs) throws SQLException {
        return new Namespace(
                rs.getString("name"),
                rs.getString("description"),
                readInstant(rs, "created_at"),
                Namespace.RecallScope.parse(rs.getString("recall_scope"), "recall_scope"));
    }

    @Override
    public Optional<Namespace> setRecallScope(String name, Namespace.RecallScope recallScope) {
        Namespace.requireValidName(name);
        boolean updated =
                inTransaction(
                        c -> {
                            try (PreparedStatement ps =
                                    c.prepareStatement(
                                            "UPDATE namespaces SET recall_scope = ? WHERE name = ?")) {
                                ps.setString(1, recallScope.label());
                                ps.setString(2, name);
                                if (ps.executeUpdate() == 0) {
                                    return false;
                                }
                            }
                            sqlAccess.appendChange(
                                    c, name, Change.Kind.NAMESPACE, name, Change.Op.UPSERT);
                            return true;
                        });
        return updated ? namespace(name) : Optional.empty();
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
                    sqlAccess.appendChange(c, name, Change.Kind.NAMESPACE, name, Change.Op.DELETE);
                    return true;
                });
    }

    // ---- forgetting a user -------------------------------------------------------------

    @Override
    public ForgetRecord forgetUser(
            String namespace,
            String userId,
            String requestedBy,
            SqlAccess.SqlWork<Map<String, Long>> erase) {
        Records.requireText(userId, "userId");
        Records.requireText(requestedBy, "requestedBy");
        String id = java.util.UUID.randomUUID().toString();
        ForgetRecord record =
                sqlAccess.write(
                        namespace,
                        c -> {
                            ForgetRecord done =
                                    new ForgetRecord(
                                            id,
                                            namespace,
                                            userId,
                                            requestedBy,
                                            now(),
                                            erase.apply(c));
                            try (PreparedStatement ps =
                                    c.prepareStatement(
                                            "INSERT INTO forget_audit (id, namespace_name,"
                                                    + " user_id, requested_by, requested_at,"
                                                    + " counts) VALUES (?, ?, ?, ?, ?, ?)")) {
                                ps.setString(1, id);
                                ps.setString(2, namespace);
                                ps.setString(3, userId);
                                ps.setString(4, requestedBy);
                                bindInstant(ps, 5, done.at());
                                bindJson(ps, 6, toJson(done.counts()));
                                ps.executeUpdate();
                            }
                            sqlAccess.appendChange(
                                    c, namespace, Change.Kind.USER, id, Change.Op.DELETE);
                            return done;
                        });
        changeLog.catchUp();
        reclaimDeletedSpace();
        return record;
    }

    @Override
    public List<ForgetRecord> forgetRecords(String namespace) {
        Namespace.requireValidName(namespace);
        return read(
                c -> {
                    List<ForgetRecord> out = new ArrayList<>();
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT id, user_id, requested_by, requested_at, counts"
                                            + " FROM forget_audit WHERE namespace_name = ?"
                                            + " ORDER BY requested_at, id")) {
                        ps.setString(1, namespace);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                out.add(
                                        new ForgetRecord(
                                                rs.getString("id"),
                                                namespace,
                                                rs.getString("user_id"),
                                                rs.getString("requested_by"),
                                                readInstant(rs, "requested_at"),
                                                fromJson(rs.getString("counts"), COUNT_MAP)));
                            }
                        }
                    }
                    return out;
                });
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

    // ---- change sequence ---------------------------------------------------------------

    /**
     * One change row per entity, in order, in one batch: a bulk write (50,000 messages) takes the
     * change log's lock once and sends its rows together instead of one round trip each.
     */
    void appendChanges(
            Connection c,
            String namespace,
            Change.Kind kind,
            Collection<String> entityIds,
            Change.Op op)
            throws SQLException {
        if (entityIds.isEmpty()) {
            return;
        }
        beforeChangeLog(c);
        Instant at = now();
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO changes (namespace, kind, entity_id, op, at)"
                                + " VALUES (?, ?, ?, ?, ?)")) {
            for (String entityId : entityIds) {
                ps.setString(1, namespace);
                ps.setString(2, kind.name());
                ps.setString(3, entityId);
                ps.setString(4, op.name());
                bindInstant(ps, 5, at);
                ps.addBatch();
            }
            ps.executeBatch();
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
    public final String instanceId() {
        String id = instanceId;
        if (id == null) {
            id =
                    read(
                            c -> {
                                try (PreparedStatement ps =
                                                c.prepareStatement(
                                                        "SELECT id FROM store_instance");
                                        ResultSet rs = ps.executeQuery()) {
                                    if (!rs.next()) {
                                        throw new StoreException(
                                                "store_instance holds no id", null);
                                    }
                                    return rs.getString(1);
                                }
                            });
            instanceId = id;
        }
        return id;
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

    // ---- JSON ---------------------------------------------------------------

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
