package dev.cairn.retrieval.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.store.Change;
import dev.cairn.store.Namespace;
import dev.cairn.store.OneOf;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Sha256;
import dev.cairn.store.SqlAccess;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * {@link DocumentRepository} over {@link SqlAccess}, SQLite and PostgreSQL: the statements of the
 * documents and chunks tables (retrieval's migration V010). Thread-safe.
 *
 * <p>Why about 500 lines: one short method per operation of the repository, each a statement or two
 * that reads both dialects through {@link SqlAccess}; they share the column lists and the row
 * mappers, which a split by reads and writes would have to share across classes.
 */
final class SqlDocumentRepository implements DocumentRepository {

    /** Most chunk rows sent in one JDBC batch. */
    private static final int INSERT_BATCH = 500;

    private static final String DOCUMENT_COLUMNS =
            "namespace, id, version, title, format, source, authority, tags, metadata, content,"
                    + " content_hash, created_at, updated_at";
    private static final String CHUNK_COLUMNS = chunkColumns("embedding");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> STRING_LIST = new TypeReference<>() {};
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

    private final SqlAccess sql;
    private final int dimensions;

    SqlDocumentRepository(SqlAccess sql, int dimensions) {
        this.sql = Objects.requireNonNull(sql, "sql");
        this.dimensions = dimensions;
    }

    // ---- documents ---------------------------------------------------------------------

    @Override
    public List<StoredDocument> replaceDocuments(
            String namespace, List<DocumentWrite> writes, AlongsideWrite alongside) {
        List<DocumentWrite> batch = List.copyOf(writes);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        return sql.write(
                namespace,
                c -> {
                    List<StoredDocument> stored = new ArrayList<>(batch.size());
                    for (DocumentWrite write : batch) {
                        stored.add(replaceDocument(c, namespace, write, now));
                        alongside.write(c, write);
                    }
                    return stored;
                });
    }

    private StoredDocument replaceDocument(
            Connection c, String namespace, DocumentWrite write, Instant now) throws SQLException {
        DocumentDraft document = write.document();
        String hash = Sha256.hex(document.content());
        long version;
        Instant createdAt;
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO documents ("
                                + DOCUMENT_COLUMNS
                                + ", ingest_key) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                                + " ON CONFLICT (namespace, id) DO UPDATE SET"
                                + " version = documents.version + 1,"
                                + " title = excluded.title, format = excluded.format,"
                                + " source = excluded.source,"
                                + " authority = excluded.authority,"
                                + " tags = excluded.tags, metadata = excluded.metadata,"
                                + " content = excluded.content,"
                                + " content_hash = excluded.content_hash,"
                                + " updated_at = excluded.updated_at,"
                                + " ingest_key = excluded.ingest_key"
                                + " RETURNING version, created_at")) {
            int i = 1;
            ps.setString(i++, namespace);
            ps.setString(i++, document.id());
            ps.setString(i++, document.title());
            ps.setString(i++, document.format().name());
            ps.setString(i++, document.source());
            ps.setString(i++, document.authority().name());
            sql.bindJson(ps, i++, toJson(document.tags()));
            sql.bindJson(ps, i++, toJson(new TreeMap<>(document.metadata())));
            ps.setString(i++, document.content());
            ps.setString(i++, hash);
            sql.bindInstant(ps, i++, now);
            sql.bindInstant(ps, i++, now);
            ps.setString(i, write.ingestKey());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                version = rs.getLong("version");
                createdAt = sql.readInstant(rs, "created_at");
            }
        }
        // After the upsert, which holds the document's row lock: a concurrent replace of the same
        // document waits here and then sees this one's chunks.
        try (PreparedStatement ps =
                c.prepareStatement("DELETE FROM chunks WHERE namespace = ? AND document_id = ?")) {
            ps.setString(1, namespace);
            ps.setString(2, document.id());
            ps.executeUpdate();
        }
        insertChunks(c, namespace, document.id(), write.chunks());
        sql.appendChange(c, namespace, Change.Kind.DOCUMENT, document.id(), Change.Op.UPSERT);
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
    }

    @Override
    public Map<String, IngestedDocument> ingestedDocuments(
            String namespace, Collection<String> documentIds) {
        Namespace.requireValidName(namespace);
        List<OneOf> batches = OneOf.batches(sql, "d.id", documentIds);
        Map<String, IngestedDocument> found = new HashMap<>();
        if (batches.isEmpty()) {
            return found;
        }
        return sql.read(
                c -> {
                    for (OneOf batch : batches) {
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "SELECT d.id, d.version, d.ingest_key,"
                                                + " (SELECT count(*) FROM chunks ch"
                                                + " WHERE ch.namespace = d.namespace"
                                                + " AND ch.document_id = d.id) AS chunk_count"
                                                + " FROM documents d"
                                                + " WHERE d.namespace = ? AND d.ingest_key <> ''"
                                                + " AND "
                                                + batch.condition())) {
                            ps.setString(1, namespace);
                            batch.bind(ps, 2);
                            try (ResultSet rs = ps.executeQuery()) {
                                while (rs.next()) {
                                    String id = rs.getString("id");
                                    found.put(
                                            id,
                                            new IngestedDocument(
                                                    id,
                                                    rs.getLong("version"),
                                                    rs.getString("ingest_key"),
                                                    rs.getInt("chunk_count")));
                                }
                            }
                        }
                    }
                    return found;
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
                if (vector.length != 0 && vector.length != dimensions) {
                    throw new IllegalArgumentException(
                            "illegal embedding dimension: "
                                    + vector.length
                                    + " in chunk "
                                    + chunk.ordinal()
                                    + " of document "
                                    + documentId
                                    + ", must be "
                                    + dimensions
                                    + " or 0");
                }
                int i = 1;
                ps.setString(i++, namespace);
                ps.setString(i++, StoredChunk.chunkId(documentId, chunk.ordinal()));
                ps.setString(i++, documentId);
                ps.setInt(i++, chunk.ordinal());
                sql.bindJson(ps, i++, toJson(chunk.headingPath()));
                ps.setString(i++, chunk.text());
                ps.setInt(i++, chunk.tokenCount());
                sql.bindVector(ps, i++, vector);
                ps.setString(i, chunk.embeddingModel());
                ps.addBatch();
                if (++batched % INSERT_BATCH == 0) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
        }
    }

    @Override
    public Optional<StoredDocument> document(String namespace, String id) {
        Namespace.requireValidName(namespace);
        return sql.read(
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
        String after = page.after();
        boolean filter = !titleQuery.isEmpty();
        String where =
                "namespace = ?" + (filter ? " AND " + sql.containsIgnoringCase("title") : "");
        return sql.read(
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
                    return Page.ofLookahead(items, total, page.limit(), StoredDocument::id);
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
                sql.readInstant(rs, "created_at"),
                sql.readInstant(rs, "updated_at"));
    }

    @Override
    public boolean deleteDocument(String namespace, String id) {
        return sql.write(
                namespace,
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
                    sql.appendChange(c, namespace, Change.Kind.DOCUMENT, id, Change.Op.DELETE);
                    return true;
                });
    }

    // ---- chunks ------------------------------------------------------------------------

    @Override
    public List<StoredChunk> chunks(String namespace, String documentId) {
        Namespace.requireValidName(namespace);
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + chunkSelectList()
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
        sql.read(
                c -> {
                    for (OneOf batch : OneOf.batches(sql, "id", ids)) {
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "SELECT "
                                                + chunkSelectList()
                                                + " FROM chunks"
                                                + " WHERE namespace = ? AND "
                                                + batch.condition())) {
                            ps.setString(1, namespace);
                            batch.bind(ps, 2);
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

    /** The chunk columns, the vector as {@code embedding} names it (written or selected). */
    private static String chunkColumns(String embedding) {
        return "namespace, id, document_id, ordinal, heading_path, text, token_count, "
                + embedding
                + ", embedding_model";
    }

    /** {@link #CHUNK_COLUMNS} as a query reads them for {@link #chunkRows}. */
    private String chunkSelectList() {
        return chunkColumns(sql.selectVector("embedding"));
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
                                sql.readVector(rs, "embedding"),
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

    private long count(String select, String namespace, long... limits) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps = c.prepareStatement(select)) {
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
        sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT id, "
                                            + sql.selectVector("embedding")
                                            + " FROM chunks WHERE namespace = ?"
                                            + " AND embedding IS NOT NULL ORDER BY id")) {
                        ps.setFetchSize(1000);
                        ps.setString(1, namespace);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                consumer.accept(
                                        rs.getString("id"), sql.readVector(rs, "embedding"));
                            }
                        }
                    }
                    return null;
                });
    }

    private static String toJson(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    private static <T> T fromJson(String json, TypeReference<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is corrupt: " + e.getMessage(), e);
        }
    }
}
