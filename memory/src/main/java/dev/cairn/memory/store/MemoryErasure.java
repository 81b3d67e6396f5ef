package dev.cairn.memory.store;

import dev.cairn.store.Change;
import dev.cairn.store.ErasureSql;
import dev.cairn.store.SqlAccess;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The memory module's share of forgetting a user ({@link dev.cairn.store.Store#forgetUser}): the
 * user's memories (rows, not the soft delete), their status history (and with the rows their recall
 * bookkeeping), and the proposals that were applied into them, each with its DELETE change so every
 * server's memory indexes drop them. It reports the conversations the memories came from (their
 * session name, or a conversation source's reference), which the conversation module then forgets
 * too.
 */
public final class MemoryErasure {

    /**
     * What went.
     *
     * @param memoryIds the user's memories, now gone
     * @param conversationIds conversations those memories name as their session or source
     * @param transitions status history rows removed
     * @param proposalIds proposals applied into those memories, now gone
     */
    public record Erased(
            List<String> memoryIds,
            Set<String> conversationIds,
            long transitions,
            List<String> proposalIds) {

        public Erased {
            memoryIds = List.copyOf(memoryIds);
            conversationIds = Set.copyOf(conversationIds);
            proposalIds = List.copyOf(proposalIds);
        }
    }

    private static final String USER_MEMORIES =
            "SELECT id FROM memories WHERE namespace = ? AND user_id = ?";

    private MemoryErasure() {}

    /** Deletes {@code userId}'s memories of {@code namespace} inside the forget's transaction. */
    public static Erased erase(Connection c, SqlAccess sql, String namespace, String userId)
            throws SQLException {
        List<String> args = List.of(namespace, userId);
        List<String> ids = ErasureSql.strings(c, USER_MEMORIES + " ORDER BY id", args);
        Set<String> conversations = new LinkedHashSet<>();
        conversations.addAll(
                ErasureSql.strings(
                        c,
                        "SELECT DISTINCT session_name FROM memories WHERE namespace = ?"
                                + " AND user_id = ? AND session_name <> ''",
                        args));
        conversations.addAll(
                ErasureSql.strings(
                        c,
                        "SELECT DISTINCT source_ref FROM memories WHERE namespace = ?"
                                + " AND user_id = ? AND source_kind IN ('CONVERSATION', 'EXTRACTION')"
                                + " AND source_ref <> ''",
                        args));
        List<String> proposals =
                ErasureSql.strings(
                        c,
                        "SELECT id FROM proposals WHERE namespace = ? AND applied_memory_id IN ("
                                + USER_MEMORIES
                                + ") ORDER BY id",
                        List.of(namespace, namespace, userId));
        ErasureSql.deleteIn(
                c,
                sql,
                "DELETE FROM proposals WHERE namespace = ?",
                List.of(namespace),
                "id",
                proposals);
        long transitions =
                ErasureSql.delete(
                        c,
                        "DELETE FROM memory_transitions WHERE namespace = ? AND memory_id IN ("
                                + USER_MEMORIES
                                + ")",
                        List.of(namespace, namespace, userId));
        ErasureSql.delete(c, "DELETE FROM memories WHERE namespace = ? AND user_id = ?", args);
        sql.appendChanges(c, namespace, Change.Kind.MEMORY, ids, Change.Op.DELETE);
        sql.appendChanges(c, namespace, Change.Kind.PROPOSAL, proposals, Change.Op.DELETE);
        return new Erased(ids, conversations, transitions, proposals);
    }
}
