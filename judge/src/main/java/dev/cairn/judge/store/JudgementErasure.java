package dev.cairn.judge.store;

import dev.cairn.store.Change;
import dev.cairn.store.ErasureSql;
import dev.cairn.store.SqlAccess;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;

/**
 * The judge's share of forgetting a user ({@link dev.cairn.store.Store#forgetUser}): answers
 * submitted for judging against the user's retrieve traces (they repeat the query and hold the
 * answer) and their judgements.
 */
public final class JudgementErasure {

    /**
     * What went.
     *
     * @param answers judged answers removed
     * @param judgements their judgements removed
     */
    public record Erased(long answers, long judgements) {}

    private JudgementErasure() {}

    /**
     * Deletes the answers judged against {@code traceIds} of {@code namespace}, with their
     * judgements, inside the forget's transaction.
     */
    public static Erased erase(
            Connection c, SqlAccess sql, String namespace, Collection<String> traceIds)
            throws SQLException {
        List<String> answers =
                ErasureSql.stringsIn(
                        c,
                        sql,
                        "SELECT id FROM answer_traces WHERE namespace = ?",
                        List.of(namespace),
                        "trace_id",
                        traceIds);
        List<String> judgements =
                ErasureSql.stringsIn(
                        c,
                        sql,
                        "SELECT id FROM answer_judgements WHERE namespace = ?",
                        List.of(namespace),
                        "answer_id",
                        answers);
        ErasureSql.deleteIn(
                c,
                sql,
                "DELETE FROM answer_judgements WHERE namespace = ?",
                List.of(namespace),
                "id",
                judgements);
        ErasureSql.deleteIn(
                c,
                sql,
                "DELETE FROM answer_traces WHERE namespace = ?",
                List.of(namespace),
                "id",
                answers);
        sql.appendChanges(c, namespace, Change.Kind.JUDGEMENT, judgements, Change.Op.DELETE);
        return new Erased(answers.size(), judgements.size());
    }
}
