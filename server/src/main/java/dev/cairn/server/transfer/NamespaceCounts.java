package dev.cairn.server.transfer;

import dev.cairn.store.SqlAccess;
import dev.cairn.store.Store;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many rows of each kind a namespace holds, counted in the store with SQL that both stores
 * speak: what a migration compares between its source and its target, apart from the export code
 * that moved them. Counts what an export carries: unexpired messages, relations made through {@code
 * POST relations} (the others are a document's or derived), every memory whatever its status.
 */
public final class NamespaceCounts {

    /** Kind to the query that counts it; each takes the namespace as its first parameter. */
    private static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put("documents", "SELECT count(*) FROM documents WHERE namespace = ?");
        QUERIES.put("chunks", "SELECT count(*) FROM chunks WHERE namespace = ?");
        QUERIES.put("memories", "SELECT count(*) FROM memories WHERE namespace = ?");
        QUERIES.put("memoryHistory", "SELECT count(*) FROM memory_transitions WHERE namespace = ?");
        QUERIES.put("conversations", "SELECT count(*) FROM conversations WHERE namespace = ?");
        QUERIES.put(
                "messages",
                "SELECT count(*) FROM messages WHERE namespace = ? AND (expires_at IS NULL OR"
                        + " expires_at > ?)");
        QUERIES.put("entries", "SELECT count(*) FROM kv_entries WHERE namespace = ?");
        QUERIES.put(
                "relations",
                "SELECT count(*) FROM knowledge_relations WHERE namespace = ? AND source = 'api'");
        QUERIES.put("proposals", "SELECT count(*) FROM proposals WHERE namespace = ?");
        QUERIES.put("feedback", "SELECT count(*) FROM retrieval_feedback WHERE namespace = ?");
        QUERIES.put(
                "adaptations", "SELECT count(*) FROM retrieval_adaptations WHERE namespace = ?");
        QUERIES.put("policies", "SELECT count(*) FROM judge_policies WHERE namespace = ?");
    }

    private NamespaceCounts() {}

    /**
     * The namespace's counts, kind to rows, in a fixed order; messages unexpired at {@code now}.
     */
    public static Map<String, Long> of(Store store, String namespace, Instant now) {
        SqlAccess sql = store.sql();
        return sql.read(
                c -> {
                    Map<String, Long> counts = new LinkedHashMap<>();
                    for (Map.Entry<String, String> q : QUERIES.entrySet()) {
                        try (PreparedStatement ps = c.prepareStatement(q.getValue())) {
                            ps.setString(1, namespace);
                            if (q.getValue().contains("expires_at")) {
                                sql.bindInstant(ps, 2, now);
                            }
                            try (ResultSet rs = ps.executeQuery()) {
                                rs.next();
                                counts.put(q.getKey(), rs.getLong(1));
                            }
                        }
                    }
                    return counts;
                });
    }
}
