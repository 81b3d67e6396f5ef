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
                        "SELECT id FROM answer_traces WHERE namespace = ? AND trace_id",
                        List.of(namespace),
                        traceIds);
        List<String> judgements =
                ErasureSql.stringsIn(
                        c,
                        "SELECT id FROM answer_judgements WHERE namespace = ? AND answer_id",
                        List.of(namespace),
                        answers);
        ErasureSql.deleteIn(
                c,
                "DELETE FROM answer_judgements WHERE namespace = ? AND id",
                List.of(namespace),
                judgements);
        ErasureSql.deleteIn(
                c,
                "DELETE FROM answer_traces WHERE namespace = ? AND id",
                List.of(namespace),
                answers);
        sql.appendChanges(c, namespace, Change.Kind.JUDGEMENT, judgements, Change.Op.DELETE);
        return new Erased(answers.size(), judgements.size());
    }
}
