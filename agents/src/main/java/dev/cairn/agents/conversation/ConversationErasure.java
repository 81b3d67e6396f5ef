package dev.cairn.agents.conversation;

import dev.cairn.store.Change;
import dev.cairn.store.ErasureSql;
import dev.cairn.store.SqlAccess;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The conversation module's share of forgetting a user ({@link dev.cairn.store.Store#forgetUser}):
 * the transcripts of the conversations tied to them (every message and the conversation row), each
 * message with its DELETE change so every server's transcript index and watchers drop it. Which
 * conversations are the user's is decided by the caller (the memory module knows which ones the
 * user's memories came from).
 */
public final class ConversationErasure {

    /**
     * What went.
     *
     * @param conversations conversation rows removed
     * @param messages messages removed
     */
    public record Erased(long conversations, long messages) {}

    private ConversationErasure() {}

    /**
     * Deletes the conversations {@code ids} of {@code namespace} inside the forget's transaction.
     */
    public static Erased erase(
            Connection c, SqlAccess sql, String namespace, Collection<String> ids)
            throws SQLException {
        List<String> seqs = new ArrayList<>();
        List<String> all = List.copyOf(ids);
        for (String id : all) {
            seqs.addAll(
                    ErasureSql.strings(
                            c,
                            "SELECT seq FROM messages WHERE namespace = ? AND conversation_id = ?"
                                    + " ORDER BY seq",
                            List.of(namespace, id)));
        }
        long messages =
                ErasureSql.deleteIn(
                        c,
                        sql,
                        "DELETE FROM messages WHERE namespace = ?",
                        List.of(namespace),
                        "conversation_id",
                        all);
        long conversations =
                ErasureSql.deleteIn(
                        c,
                        sql,
                        "DELETE FROM conversations WHERE namespace = ?",
                        List.of(namespace),
                        "id",
                        all);
        sql.appendChanges(c, namespace, Change.Kind.MESSAGE, seqs, Change.Op.DELETE);
        return new Erased(conversations, messages);
    }
}
