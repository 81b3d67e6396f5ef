package dev.cairn.retrieval.feedback;

import dev.cairn.store.ErasureSql;
import dev.cairn.store.SqlAccess;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;

/**
 * The feedback log's share of forgetting a user ({@link dev.cairn.store.Store#forgetUser}): the
 * judgments of the user's memories, whose query was asked about them. Feedback is read from its
 * table when an adaptation is trained, so no derived index keeps it.
 */
public final class FeedbackErasure {

    private FeedbackErasure() {}

    /**
     * Deletes the judgments of {@code memoryIds} in {@code namespace} inside the forget's
     * transaction: the number of rows removed.
     */
    public static long eraseJudgmentsOfMemories(
            Connection c, SqlAccess sql, String namespace, Collection<String> memoryIds)
            throws SQLException {
        return ErasureSql.deleteIn(
                c,
                sql,
                "DELETE FROM retrieval_feedback WHERE namespace = ? AND target_kind = ?",
                List.of(namespace, Judgment.Kind.MEMORY.name()),
                "target_id",
                memoryIds);
    }
}
