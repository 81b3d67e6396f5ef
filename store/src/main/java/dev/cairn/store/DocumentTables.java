package dev.cairn.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The documents and chunks tables of a {@link JdbcStore}: writes in one transaction with their
 * change rows, reads, paging and the embedding scan. Split from the store for size; the store
 * delegates its document methods here. Thread-safe as the store is.
 */
final class DocumentTables {

    private final JdbcStore store;

    DocumentTables(JdbcStore store) {
        this.store = store;
    }

    // ---- documents ---------------------------------------------------------------------

    List<StoredDocument> replaceDocuments(
            String namespace, List<DocumentWrite> writes, Store.AlongsideWrite alongside) {
        Namespace.requireValidName(namespace);
        List<DocumentWrite> batch = List.copyOf(writes);
        Instant now = JdbcStore.now();
        return store.inTransaction(
                c -> {
                    store.requireNamespace(c, namespace);
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
        String hash = Migrations.sha256(document.content());
        long version;
        Instant createdAt;
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO documents ("
                                + JdbcStore.DOCUMENT_COLUMNS
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
            store.bindJson(ps, i++, JdbcStore.toJson(document.tags()));
            store.bindJson(ps, i++, JdbcStore.toJson(new TreeMap<>(document.metadata())));
            ps.setString(i++, document.content());
            ps.setString(i++, hash);
            store.bindInstant(ps, i++, now);
            store.bindInstant(ps, i++, now);
            ps.setString(i, write.ingestKey());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                version = rs.getLong("version");
                createdAt = store.readInstant(rs, "created_at");
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
        store.sql()
                .appendChange(c, namespace, Change.Kind.DOCUMENT, document.id(), Change.Op.UPSERT);
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

    Map<String, IngestedDocument> ingestedDocuments(
            String namespace, Collection<String> documentIds) {
        Namespace.requireValidName(namespace);
        List<String> ids = List.copyOf(new LinkedHashSet<>(documentIds));
        Map<String, IngestedDocument> found = new HashMap<>();
        if (ids.isEmpty()) {
            return found;
        }
        return store.read(
                c -> {
                    for (int from = 0; from < ids.size(); from += JdbcStore.IN_BATCH) {
                        List<String> batch =
                                ids.subList(from, Math.min(ids.size(), from + JdbcStore.IN_BATCH));
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "SELECT d.id, d.version, d.ingest_key,"
                                                + " (SELECT count(*) FROM chunks ch"
                                                + " WHERE ch.namespace = d.namespace"
                                                + " AND ch.document_id = d.id) AS chunk_count"
                                                + " FROM documents d"
                                                + " WHERE d.namespace = ? AND d.ingest_key <> ''"
                                                + " AND d.id IN ("
                                                + marks(batch.size())
                                                + ")")) {
                            ps.setString(1, namespace);
                            for (int i = 0; i < batch.size(); i++) {
                                ps.setString(i + 2, batch.get(i));
                            }
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

    private static String marks(int count) {
        return String.join(", ", java.util.Collections.nCopies(count, "?"));
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
                                + JdbcStore.CHUNK_COLUMNS
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
                if (vector.length != 0 && vector.length != store.config.dimensions()) {
                    throw new IllegalArgumentException(
                            "illegal embedding dimension: "
                                    + vector.length
                                    + " in chunk "
                                    + chunk.ordinal()
                                    + " of document "
                                    + documentId
                                    + ", must be "
                                    + store.config.dimensions()
                                    + " or 0");
                }
                int i = 1;
                ps.setString(i++, namespace);
                ps.setString(i++, StoredChunk.chunkId(documentId, chunk.ordinal()));
                ps.setString(i++, documentId);
                ps.setInt(i++, chunk.ordinal());
                store.bindJson(ps, i++, JdbcStore.toJson(chunk.headingPath()));
                ps.setString(i++, chunk.text());
                ps.setInt(i++, chunk.tokenCount());
                store.bindVector(ps, i++, vector);
                ps.setString(i, chunk.embeddingModel());
                ps.addBatch();
                if (++batched % JdbcStore.IN_BATCH == 0) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
        }
    }

    Optional<StoredDocument> document(String namespace, String id) {
        Namespace.requireValidName(namespace);
        return store.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + JdbcStore.DOCUMENT_COLUMNS
                                            + " FROM documents WHERE namespace = ? AND id = ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, id);
                        try (ResultSet rs = ps.executeQuery()) {
                            return rs.next() ? Optional.of(documentRow(rs)) : Optional.empty();
                        }
                    }
                });
    }

    Page<StoredDocument> documents(String namespace, PageRequest page, String titleQuery) {
        Namespace.requireValidName(namespace);
        String after = page.after();
        boolean filter = !titleQuery.isEmpty();
        String where = "namespace = ?" + (filter ? " AND " + store.titleContainsSql() : "");
        return store.read(
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
                                            + JdbcStore.DOCUMENT_COLUMNS
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
                    return JdbcStore.page(items, total, page.limit(), StoredDocument::id);
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
                JdbcStore.fromJson(rs.getString("tags"), JdbcStore.STRING_LIST),
                JdbcStore.fromJson(rs.getString("metadata"), JdbcStore.STRING_MAP),
                rs.getString("content"),
                rs.getString("content_hash"),
                store.readInstant(rs, "created_at"),
                store.readInstant(rs, "updated_at"));
    }

    boolean deleteDocument(String namespace, String id) {
        Namespace.requireValidName(namespace);
        return store.inTransaction(
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
                    store.sql()
                            .appendChange(c, namespace, Change.Kind.DOCUMENT, id, Change.Op.DELETE);
                    return true;
                });
    }

    // ---- chunks ------------------------------------------------------------------------

    List<StoredChunk> chunks(String namespace, String documentId) {
        Namespace.requireValidName(namespace);
        return store.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT "
                                            + JdbcStore.CHUNK_COLUMNS
                                            + " FROM chunks"
                                            + " WHERE namespace = ? AND document_id = ?"
                                            + " ORDER BY ordinal")) {
                        ps.setString(1, namespace);
                        ps.setString(2, documentId);
                        return chunkRows(ps);
                    }
                });
    }

    List<StoredChunk> chunks(String namespace, Collection<String> chunkIds) {
        Namespace.requireValidName(namespace);
        List<String> ids = List.copyOf(new LinkedHashSet<>(chunkIds));
        if (ids.isEmpty()) {
            return List.of();
        }
        Map<String, StoredChunk> found = new HashMap<>();
        store.read(
                c -> {
                    for (int from = 0; from < ids.size(); from += JdbcStore.IN_BATCH) {
                        List<String> batch =
                                ids.subList(from, Math.min(ids.size(), from + JdbcStore.IN_BATCH));
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "SELECT "
                                                + JdbcStore.CHUNK_COLUMNS
                                                + " FROM chunks"
                                                + " WHERE namespace = ? AND id IN ("
                                                + marks(batch.size())
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
                                JdbcStore.fromJson(
                                        rs.getString("heading_path"), JdbcStore.STRING_LIST),
                                rs.getString("text"),
                                rs.getInt("token_count"),
                                store.readVector(rs, "embedding"),
                                rs.getString("embedding_model")));
            }
        }
        return out;
    }

    long chunkCount(String namespace) {
        Namespace.requireValidName(namespace);
        return count("SELECT count(*) FROM chunks WHERE namespace = ?", namespace);
    }

    boolean hasEmbeddedChunks(String namespace, long atLeast) {
        return count(
                        "SELECT count(*) FROM (SELECT 1 FROM chunks WHERE namespace = ?"
                                + " AND embedding IS NOT NULL LIMIT ?) AS bounded",
                        namespace,
                        atLeast)
                >= atLeast;
    }

    private long count(String sql, String namespace, long... limits) {
        return store.read(
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

    void forEachEmbedding(String namespace, BiConsumer<String, float[]> consumer) {
        Namespace.requireValidName(namespace);
        store.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT id, embedding FROM chunks WHERE namespace = ?"
                                            + " AND embedding IS NOT NULL ORDER BY id")) {
                        ps.setFetchSize(1000);
                        ps.setString(1, namespace);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                consumer.accept(
                                        rs.getString("id"), store.readVector(rs, "embedding"));
                            }
                        }
                    }
                    return null;
                });
    }
}
