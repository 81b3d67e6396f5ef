package dev.cairn.retrieval;

import dev.cairn.store.Change;
import dev.cairn.store.ErasureSql;
import dev.cairn.store.SqlAccess;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The trace log's share of forgetting a user ({@link dev.cairn.store.Store#forgetUser}): the stored
 * traces of retrieve queries asked for the user ({@link RetrieveRequest#userId()}). Call {@link
 * KnowledgeBase#flushTraces()} first, so the traces still queued behind their answers are in the
 * table. Also retention by age, which the memory maintenance round runs.
 */
public final class TraceErasure {

    private TraceErasure() {}

    /**
     * Deletes {@code userId}'s stored traces of {@code namespace} inside the forget's transaction:
     * the ids of the traces removed.
     */
    public static List<String> erase(Connection c, SqlAccess sql, String namespace, String userId)
            throws SQLException {
        List<String> args = List.of(namespace, userId);
        List<String> ids =
                ErasureSql.strings(
                        c,
                        "SELECT id FROM retrieval_traces WHERE namespace = ? AND user_id = ?"
                                + " ORDER BY id",
                        args);
        ErasureSql.delete(
                c, "DELETE FROM retrieval_traces WHERE namespace = ? AND user_id = ?", args);
        sql.appendChanges(c, namespace, Change.Kind.TRACE, ids, Change.Op.DELETE);
        return ids;
    }

    /**
     * Retention: deletes the stored traces of {@code namespace} written before {@code cutoff}, in a
     * transaction of its own; the number removed.
     */
    public static long eraseOlderThan(SqlAccess sql, String namespace, Instant cutoff) {
        return sql.write(
                namespace,
                c -> {
                    List<String> ids = new ArrayList<>();
                    try (PreparedStatement ps =
                            c.prepareStatement(
                                    "SELECT id FROM retrieval_traces WHERE namespace = ?"
                                            + " AND created_at < ? ORDER BY id")) {
                        ps.setString(1, namespace);
                        sql.bindInstant(ps, 2, cutoff);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                ids.add(rs.getString(1));
                            }
                        }
                    }
                    ErasureSql.deleteIn(
                            c,
                            sql,
                            "DELETE FROM retrieval_traces WHERE namespace = ?",
                            List.of(namespace),
                            "id",
                            ids);
                    sql.appendChanges(c, namespace, Change.Kind.TRACE, ids, Change.Op.DELETE);
                    return (long) ids.size();
                });
    }
}
