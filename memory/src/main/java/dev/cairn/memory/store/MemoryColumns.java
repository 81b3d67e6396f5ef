package dev.cairn.memory.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.memory.Layer;
import dev.cairn.memory.Memory;
import dev.cairn.memory.MemorySource;
import dev.cairn.memory.MemoryStatus;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.Scope;
import dev.cairn.store.SqlAccess;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Memory} as a row of the {@code memories} table and back, in either dialect (instants,
 * JSON and vectors bound through {@link SqlAccess}); tags are a JSON list. Thread-safe.
 */
final class MemoryColumns {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> STRING_LIST = new TypeReference<>() {};

    /** The columns of a memory, in the order {@link #bind} binds and {@link #read} reads. */
    static final String COLUMNS =
            "namespace, id, user_id, agent_id, session_name, task_name, parent_task, type, layer,"
                    + " status, content, content_hash, tags, confidence, importance, conflict_key,"
                    + " source_kind, source_ref, created_at, updated_at, expires_at,"
                    + " last_recalled_at, recalled_count, disabled, deleted, embedding_model";

    /**
     * Inserts or replaces a memory; its embedding is parameter {@link #EMBEDDING}, kept when null,
     * and its windows' vectors parameter {@link #WINDOWS}: replaced with a new embedding (NULL: not
     * computed), else kept unless given.
     */
    static final String UPSERT =
            "INSERT INTO memories ("
                    + COLUMNS
                    + ", embedding, windows) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                    + " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (namespace, id) DO UPDATE SET"
                    + " user_id = excluded.user_id, agent_id = excluded.agent_id,"
                    + " session_name = excluded.session_name, task_name = excluded.task_name,"
                    + " parent_task = excluded.parent_task, type = excluded.type,"
                    + " layer = excluded.layer, status = excluded.status,"
                    + " content = excluded.content, content_hash = excluded.content_hash,"
                    + " tags = excluded.tags, confidence = excluded.confidence,"
                    + " importance = excluded.importance, conflict_key = excluded.conflict_key,"
                    + " source_kind = excluded.source_kind, source_ref = excluded.source_ref,"
                    + " created_at = excluded.created_at, updated_at = excluded.updated_at,"
                    + " expires_at = excluded.expires_at,"
                    + " last_recalled_at = excluded.last_recalled_at,"
                    + " recalled_count = excluded.recalled_count, disabled = excluded.disabled,"
                    + " deleted = excluded.deleted, embedding_model = excluded.embedding_model,"
                    + " embedding = COALESCE(excluded.embedding, memories.embedding),"
                    + " windows = CASE WHEN excluded.embedding IS NOT NULL"
                    + " OR excluded.windows IS NOT NULL THEN excluded.windows"
                    + " ELSE memories.windows END";

    /** The parameter of {@link #UPSERT} that takes the embedding. */
    static final int EMBEDDING = 27;

    /** The parameter of {@link #UPSERT} that takes the windows' vectors. */
    static final int WINDOWS = 28;

    /** The windows' vectors packed for the {@code windows} column (float32, little-endian). */
    static byte[] packWindows(List<float[]> windows, int dimensions) {
        ByteBuffer buffer =
                ByteBuffer.allocate(windows.size() * dimensions * Float.BYTES)
                        .order(ByteOrder.LITTLE_ENDIAN);
        for (float[] w : windows) {
            if (w.length != dimensions) {
                throw new IllegalArgumentException(
                        "illegal window vector: "
                                + w.length
                                + " dimensions, must be "
                                + dimensions);
            }
            buffer.asFloatBuffer().put(w);
            buffer.position(buffer.position() + w.length * Float.BYTES);
        }
        return buffer.array();
    }

    /** The windows' vectors of a {@code windows} column: empty for NULL or none. */
    static List<float[]> unpackWindows(byte[] packed, int dimensions) {
        if (packed == null || packed.length == 0 || dimensions == 0) {
            return List.of();
        }
        FloatBuffer floats = ByteBuffer.wrap(packed).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        List<float[]> out = new ArrayList<>(floats.remaining() / dimensions);
        while (floats.remaining() >= dimensions) {
            float[] w = new float[dimensions];
            floats.get(w);
            out.add(w);
        }
        return out;
    }

    private final SqlAccess sql;

    MemoryColumns(SqlAccess sql) {
        this.sql = sql;
    }

    /** Binds parameters 1 to 26 of {@link #UPSERT}. */
    void bind(PreparedStatement ps, Memory m) throws SQLException {
        Scope s = m.scope();
        int i = 1;
        ps.setString(i++, s.namespace());
        ps.setString(i++, m.id());
        ps.setString(i++, s.userId());
        ps.setString(i++, s.agentId());
        ps.setString(i++, s.sessionName());
        ps.setString(i++, s.taskName());
        ps.setString(i++, s.parentTask());
        ps.setString(i++, m.type().name());
        ps.setString(i++, m.layer().name());
        ps.setString(i++, m.status().name());
        ps.setString(i++, m.content());
        ps.setString(i++, m.contentHash());
        sql.bindJson(ps, i++, toJson(m.tags()));
        ps.setDouble(i++, m.confidence());
        ps.setDouble(i++, m.importance());
        ps.setString(i++, m.conflictKey());
        ps.setString(i++, m.source().kind().name());
        ps.setString(i++, m.source().reference());
        sql.bindInstant(ps, i++, m.createdAt());
        sql.bindInstant(ps, i++, m.updatedAt());
        sql.bindInstant(ps, i++, m.expiresAt());
        sql.bindInstant(ps, i++, m.lastRecalledAt());
        ps.setLong(i++, m.recalledCount());
        ps.setBoolean(i++, m.disabled());
        ps.setBoolean(i++, m.deleted());
        ps.setString(i, m.embeddingModel());
    }

    /** The memory of the current row of a query of {@link #COLUMNS}. */
    Memory read(ResultSet rs) throws SQLException {
        return new Memory(
                rs.getString("id"),
                new Scope(
                        rs.getString("namespace"),
                        rs.getString("user_id"),
                        rs.getString("agent_id"),
                        rs.getString("session_name"),
                        rs.getString("task_name"),
                        rs.getString("parent_task")),
                MemoryType.valueOf(rs.getString("type")),
                Layer.valueOf(rs.getString("layer")),
                MemoryStatus.valueOf(rs.getString("status")),
                rs.getString("content"),
                rs.getString("content_hash"),
                fromJson(rs.getString("tags")),
                rs.getDouble("confidence"),
                rs.getDouble("importance"),
                rs.getString("conflict_key"),
                new MemorySource(
                        MemorySource.Kind.valueOf(rs.getString("source_kind")),
                        rs.getString("source_ref")),
                sql.readInstant(rs, "created_at"),
                sql.readInstant(rs, "updated_at"),
                sql.readInstant(rs, "expires_at"),
                sql.readInstant(rs, "last_recalled_at"),
                rs.getLong("recalled_count"),
                rs.getBoolean("disabled"),
                rs.getBoolean("deleted"),
                rs.getString("embedding_model"));
    }

    static String toJson(List<String> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write tags as JSON", e);
        }
    }

    static List<String> fromJson(String json) {
        try {
            return JSON.readValue(json, STRING_LIST);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored tags are not a JSON list", e);
        }
    }
}
