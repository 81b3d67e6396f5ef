package dev.cairn.retrieval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.graph.ChunkEntities;
import dev.cairn.graph.EntityDeclaration;
import dev.cairn.graph.EntityKind;
import dev.cairn.graph.Mention;
import dev.cairn.graph.NodeKind;
import dev.cairn.graph.NodeRef;
import dev.cairn.graph.Relation;
import dev.cairn.graph.RelationType;
import dev.cairn.store.Change;
import dev.cairn.store.SqlAccess;
import dev.cairn.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The entity graph's rows in the store (migration {@code V005__entity_graph}): {@code
 * knowledge_entities}, {@code knowledge_relations} and {@code knowledge_chunk_entities}.
 *
 * <p>Primary data: entities and relations declared in a document's front matter (source {@link
 * Source#DECLARED}, written on ingest before the document, replaced by a re-ingest) and relations
 * created through {@code POST relations} (source {@link Source#API}, with a {@code RELATION} change
 * row). Derived data: entities the extractor found, relations stated in text and the
 * chunk-to-entity links (sources {@link Source#EXTRACTED}, {@link Source#TEXT}), written by the
 * catch-up that applies a document's change, so each store holds the graph it serves.
 *
 * <p>Why about 590 lines: every statement over the three entity-graph tables, for declared,
 * extracted, text and API rows and the export's copies of API relations, kept beside the one schema
 * they read and write.
 *
 * <p>Thread-safe: every method runs in its own transaction.
 */
final class EntityRepository {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};

    /** Where a row came from. */
    enum Source {
        /** Front matter of a document. */
        DECLARED,
        /** Found by the rule-based extractor in a document's chunks. */
        EXTRACTED,
        /** A relation stated in a document's text ("X depends on Y"). */
        TEXT,
        /** {@code POST relations}. */
        API;

        String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * A relation row.
     *
     * @param id row id
     * @param documentId the document that stated it, "" for {@link Source#API}
     * @param source where it came from
     * @param relation the relation
     */
    record StoredRelation(String id, String documentId, Source source, Relation relation) {
        StoredRelation {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(documentId, "documentId");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(relation, "relation");
        }
    }

    /**
     * What a document declares in its front matter.
     *
     * @param entities declared entities
     * @param relations declared relations, type to entity names or document ids
     */
    record Declarations(
            List<EntityDeclaration> entities, Map<RelationType, List<String>> relations) {
        static final Declarations NONE = new Declarations(List.of(), Map.of());

        Declarations {
            entities = List.copyOf(entities);
            Map<RelationType, List<String>> copy = new EnumMap<>(RelationType.class);
            relations.forEach((t, v) -> copy.put(t, List.copyOf(v)));
            relations = java.util.Collections.unmodifiableMap(copy);
        }
    }

    private final SqlAccess sql;

    EntityRepository(SqlAccess sql) {
        this.sql = Objects.requireNonNull(sql, "sql");
    }

    // ---- declarations (primary, per document) --------------------------------------------

    /**
     * Replaces a document's front matter entities and relations, in the caller's transaction (the
     * one that writes the document).
     */
    void replaceDeclarations(
            Connection c, String namespace, String documentId, Declarations declarations)
            throws SQLException {
        deleteRows(c, namespace, documentId, Source.DECLARED);
        insertEntities(c, namespace, documentId, Source.DECLARED, declarations.entities());
        List<Relation> relations = new ArrayList<>();
        NodeRef self = NodeRef.document(documentId);
        declarations
                .relations()
                .forEach(
                        (type, values) ->
                                values.forEach(
                                        v ->
                                                relations.add(
                                                        Relation.of(
                                                                self,
                                                                type,
                                                                NodeRef.unresolved(v)))));
        insertRelations(c, namespace, documentId, Source.DECLARED, relations);
    }

    /** A document's front matter, empty when it declared nothing. */
    Declarations declarations(String namespace, String documentId) {
        return sql.read(
                c -> {
                    List<EntityDeclaration> entities =
                            entities(c, namespace, documentId, Source.DECLARED);
                    Map<RelationType, List<String>> relations = new EnumMap<>(RelationType.class);
                    for (StoredRelation r : relations(c, namespace, documentId, Source.DECLARED)) {
                        relations
                                .computeIfAbsent(r.relation().type(), k -> new ArrayList<>())
                                .add(r.relation().to().id());
                    }
                    return new Declarations(entities, relations);
                });
    }

    // ---- derived (per document) -----------------------------------------------------------

    /**
     * Replaces what extraction derived from a document: its extracted entities, text relations and
     * chunk links.
     */
    void replaceDerived(
            String namespace,
            String documentId,
            List<EntityDeclaration> extracted,
            List<Relation> textRelations,
            List<ChunkEntities> chunks) {
        sql.write(
                namespace,
                c -> {
                    deleteRows(c, namespace, documentId, Source.EXTRACTED);
                    deleteRows(c, namespace, documentId, Source.TEXT);
                    deleteChunkLinks(c, namespace, documentId);
                    insertEntities(c, namespace, documentId, Source.EXTRACTED, extracted);
                    insertRelations(c, namespace, documentId, Source.TEXT, textRelations);
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "INSERT INTO knowledge_chunk_entities (namespace, document_id,"
                                            + " chunk_id, entity_id, mentions) VALUES (?, ?, ?, ?,"
                                            + " ?)")) {
                        for (ChunkEntities chunk : chunks) {
                            Map<String, Integer> counts = new TreeMap<>();
                            for (Mention m : chunk.mentions()) {
                                counts.merge(m.entityId(), 1, Integer::sum);
                            }
                            for (Map.Entry<String, Integer> e : counts.entrySet()) {
                                ps.setString(1, namespace);
                                ps.setString(2, documentId);
                                ps.setString(3, chunk.chunkId());
                                ps.setString(4, e.getKey());
                                ps.setInt(5, e.getValue());
                                ps.addBatch();
                            }
                        }
                        ps.executeBatch();
                    }
                    return null;
                });
    }

    /** Removes every row a document brought (declared and derived). */
    void removeDocument(String namespace, String documentId) {
        sql.write(
                namespace,
                c -> {
                    for (Source source : List.of(Source.DECLARED, Source.EXTRACTED, Source.TEXT)) {
                        deleteRows(c, namespace, documentId, source);
                    }
                    deleteChunkLinks(c, namespace, documentId);
                    return null;
                });
    }

    /** Entities of a document from one source. */
    List<EntityDeclaration> entities(String namespace, String documentId, Source source) {
        return sql.read(c -> entities(c, namespace, documentId, source));
    }

    /** Relations of a document from one source ({@code ""} with {@link Source#API}). */
    List<StoredRelation> relations(String namespace, String documentId, Source source) {
        return sql.read(c -> relations(c, namespace, documentId, source));
    }

    /** Chunk links of a document: chunk id to entity id to mention count. */
    Map<String, Map<String, Integer>> chunkLinks(String namespace, String documentId) {
        return sql.read(
                c -> {
                    Map<String, Map<String, Integer>> out = new TreeMap<>();
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT chunk_id, entity_id, mentions FROM"
                                            + " knowledge_chunk_entities WHERE namespace = ? AND"
                                            + " document_id = ? ORDER BY chunk_id, entity_id")) {
                        ps.setString(1, namespace);
                        ps.setString(2, documentId);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                out.computeIfAbsent(rs.getString(1), k -> new TreeMap<>())
                                        .put(rs.getString(2), rs.getInt(3));
                            }
                        }
                    }
                    return out;
                });
    }

    // ---- API relations (primary) ---------------------------------------------------------

    /**
     * Stores a relation from {@code POST relations} with its {@code RELATION} change row, unless
     * one with the same ends and type is stored already: then that one is the answer and nothing is
     * written, so posting a relation twice leaves one edge.
     */
    AddedRelation addApiRelation(String namespace, Relation relation) {
        return sql.write(
                namespace,
                c -> {
                    Optional<StoredRelation> same = sameApiRelation(c, namespace, relation);
                    if (same.isPresent()) {
                        return new AddedRelation(same.get(), false);
                    }
                    String id = UUID.randomUUID().toString();
                    insertRelation(c, namespace, id, "", Source.API, relation, Instant.now());
                    sql.appendChange(c, namespace, Change.Kind.RELATION, id, Change.Op.UPSERT);
                    return new AddedRelation(
                            new StoredRelation(id, "", Source.API, relation), true);
                });
    }

    /** Every API relation of the namespace, in id order, with the time it was stored. */
    List<RelationCopy> apiRelationCopies(String namespace) {
        return sql.read(
                c -> {
                    List<RelationCopy> out = new ArrayList<>();
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT id, document_id, source, from_kind, from_id, to_kind,"
                                            + " to_id, type, confidence, created_at FROM"
                                            + " knowledge_relations WHERE namespace = ? AND"
                                            + " source = ? ORDER BY id")) {
                        ps.setString(1, namespace);
                        ps.setString(2, Source.API.wire());
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                out.add(
                                        new RelationCopy(
                                                rs.getString("id"),
                                                relation(rs).relation(),
                                                sql.readInstant(rs, "created_at")));
                            }
                        }
                    }
                    return out;
                });
    }

    /**
     * Stores exported API relations under their own ids, each with its {@code RELATION} change row,
     * in one transaction; a relation whose id is stored already is left alone (an import run again
     * adds nothing).
     *
     * @return how many were stored
     */
    int restoreApiRelations(String namespace, List<RelationCopy> copies) {
        return sql.write(
                namespace,
                c -> {
                    int stored = 0;
                    for (RelationCopy copy : copies) {
                        try (PreparedStatement ps =
                                c.prepareStatement(
                                        "SELECT 1 FROM knowledge_relations WHERE namespace = ?"
                                                + " AND id = ?")) {
                            ps.setString(1, namespace);
                            ps.setString(2, copy.id());
                            try (ResultSet rs = ps.executeQuery()) {
                                if (rs.next()) {
                                    continue;
                                }
                            }
                        }
                        insertRelation(
                                c,
                                namespace,
                                copy.id(),
                                "",
                                Source.API,
                                copy.relation(),
                                copy.createdAt());
                        sql.appendChange(
                                c, namespace, Change.Kind.RELATION, copy.id(), Change.Op.UPSERT);
                        stored++;
                    }
                    return stored;
                });
    }

    /** An API relation and whether this call stored it. */
    record AddedRelation(StoredRelation stored, boolean created) {}

    /** The API relation with the same ends (as given) and type, if one was posted before. */
    private static Optional<StoredRelation> sameApiRelation(
            Connection c, String namespace, Relation r) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT id, document_id, source, from_kind, from_id, to_kind, to_id, type,"
                                + " confidence FROM knowledge_relations WHERE namespace = ? AND"
                                + " source = ? AND from_kind = ? AND from_id = ? AND to_kind = ?"
                                + " AND to_id = ? AND type = ? ORDER BY id LIMIT 1")) {
            ps.setString(1, namespace);
            ps.setString(2, Source.API.wire());
            ps.setString(3, r.from().kind().name());
            ps.setString(4, r.from().id());
            ps.setString(5, r.to().kind().name());
            ps.setString(6, r.to().id());
            ps.setString(7, r.type().wireName());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(relation(rs)) : Optional.empty();
            }
        }
    }

    /** An API relation by id. */
    Optional<StoredRelation> apiRelation(String namespace, String id) {
        return sql.read(
                c -> {
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT id, document_id, source, from_kind, from_id, to_kind,"
                                            + " to_id, type, confidence FROM knowledge_relations"
                                            + " WHERE namespace = ? AND id = ? AND source = ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, id);
                        ps.setString(3, Source.API.wire());
                        try (ResultSet rs = ps.executeQuery()) {
                            return rs.next() ? Optional.of(relation(rs)) : Optional.empty();
                        }
                    }
                });
    }

    /**
     * Every {@code supersedes} relation of a namespace whose ends can be documents: superseded id
     * to the ids that supersede it.
     */
    Map<String, Set<String>> supersessions(String namespace) {
        return sql.read(
                c -> {
                    Map<String, Set<String>> out = new HashMap<>();
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT from_id, to_id FROM knowledge_relations WHERE"
                                            + " namespace = ? AND type = ? AND from_kind <> ? AND"
                                            + " to_kind <> ?")) {
                        ps.setString(1, namespace);
                        ps.setString(2, RelationType.SUPERSEDES.wireName());
                        ps.setString(3, NodeKind.ENTITY.name());
                        ps.setString(4, NodeKind.ENTITY.name());
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                out.computeIfAbsent(rs.getString(2), k -> new TreeSet<>())
                                        .add(rs.getString(1));
                            }
                        }
                    }
                    return out;
                });
    }

    // ---- SQL -----------------------------------------------------------------------------

    private static void deleteRows(Connection c, String namespace, String documentId, Source source)
            throws SQLException {
        for (String table : List.of("knowledge_entities", "knowledge_relations")) {
            try (PreparedStatement ps =
                    c.prepareStatement(
                            "DELETE FROM "
                                    + table
                                    + " WHERE namespace = ? AND document_id = ? AND source = ?")) {
                ps.setString(1, namespace);
                ps.setString(2, documentId);
                ps.setString(3, source.wire());
                ps.executeUpdate();
            }
        }
    }

    private static void deleteChunkLinks(Connection c, String namespace, String documentId)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "DELETE FROM knowledge_chunk_entities WHERE namespace = ? AND document_id"
                                + " = ?")) {
            ps.setString(1, namespace);
            ps.setString(2, documentId);
            ps.executeUpdate();
        }
    }

    private static void insertEntities(
            Connection c,
            String namespace,
            String documentId,
            Source source,
            List<EntityDeclaration> entities)
            throws SQLException {
        Map<String, EntityDeclaration> byId = new LinkedHashMap<>();
        for (EntityDeclaration e : entities) {
            byId.putIfAbsent(dev.cairn.graph.Canonical.key(e.name()), e);
        }
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO knowledge_entities (namespace, document_id, entity_id, name,"
                                + " kind, aliases, source) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            for (Map.Entry<String, EntityDeclaration> e : byId.entrySet()) {
                ps.setString(1, namespace);
                ps.setString(2, documentId);
                ps.setString(3, e.getKey());
                ps.setString(4, e.getValue().name());
                ps.setString(5, e.getValue().kind().wireName());
                ps.setString(6, json(e.getValue().aliases()));
                ps.setString(7, source.wire());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private void insertRelations(
            Connection c,
            String namespace,
            String documentId,
            Source source,
            List<Relation> relations)
            throws SQLException {
        int n = 0;
        for (Relation r : relations) {
            insertRelation(
                    c,
                    namespace,
                    documentId + "|" + source.wire() + "|" + n++,
                    documentId,
                    source,
                    r,
                    Instant.now());
        }
    }

    private void insertRelation(
            Connection c,
            String namespace,
            String id,
            String documentId,
            Source source,
            Relation r,
            Instant createdAt)
            throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement(
                        "INSERT INTO knowledge_relations (namespace, id, document_id, source,"
                                + " from_kind, from_id, to_kind, to_id, type, confidence,"
                                + " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, namespace);
            ps.setString(2, id);
            ps.setString(3, documentId);
            ps.setString(4, source.wire());
            ps.setString(5, r.from().kind().name());
            ps.setString(6, r.from().id());
            ps.setString(7, r.to().kind().name());
            ps.setString(8, r.to().id());
            ps.setString(9, r.type().wireName());
            ps.setDouble(10, r.confidence());
            sql.bindInstant(ps, 11, createdAt);
            ps.executeUpdate();
        }
    }

    private static List<EntityDeclaration> entities(
            Connection c, String namespace, String documentId, Source source) throws SQLException {
        List<EntityDeclaration> out = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT name, kind, aliases FROM knowledge_entities WHERE namespace = ? AND"
                                + " document_id = ? AND source = ? ORDER BY entity_id")) {
            ps.setString(1, namespace);
            ps.setString(2, documentId);
            ps.setString(3, source.wire());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(
                            new EntityDeclaration(
                                    rs.getString(1),
                                    EntityKind.parse(rs.getString(2)),
                                    parse(rs.getString(3))));
                }
            }
        }
        return out;
    }

    private static List<StoredRelation> relations(
            Connection c, String namespace, String documentId, Source source) throws SQLException {
        List<StoredRelation> out = new ArrayList<>();
        try (PreparedStatement ps =
                c.prepareStatement(
                        "SELECT id, document_id, source, from_kind, from_id, to_kind, to_id, type,"
                                + " confidence FROM knowledge_relations WHERE namespace = ? AND"
                                + " document_id = ? AND source = ? ORDER BY created_at, id")) {
            ps.setString(1, namespace);
            ps.setString(2, documentId);
            ps.setString(3, source.wire());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(relation(rs));
                }
            }
        }
        return out;
    }

    private static StoredRelation relation(ResultSet rs) throws SQLException {
        return new StoredRelation(
                rs.getString("id"),
                rs.getString("document_id"),
                Source.valueOf(rs.getString("source").toUpperCase(java.util.Locale.ROOT)),
                new Relation(
                        new NodeRef(
                                NodeKind.valueOf(rs.getString("from_kind")),
                                rs.getString("from_id")),
                        new NodeRef(
                                NodeKind.valueOf(rs.getString("to_kind")), rs.getString("to_id")),
                        RelationType.parse(rs.getString("type")),
                        rs.getDouble("confidence")));
    }

    private static String json(List<String> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new StoreException("cannot write aliases", e);
        }
    }

    private static List<String> parse(String json) {
        try {
            return JSON.readValue(json, STRINGS);
        } catch (JsonProcessingException e) {
            throw new StoreException("cannot read aliases", e);
        }
    }
}
