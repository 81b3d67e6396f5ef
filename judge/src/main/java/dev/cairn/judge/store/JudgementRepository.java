package dev.cairn.judge.store;

import dev.cairn.judge.Judgement;
import dev.cairn.store.SqlAccess;
import java.util.Optional;

/** Judged answers and their judgements, per namespace. Implementations are thread-safe. */
public interface JudgementRepository {

    /**
     * Stores the answer and its judgement in one transaction, with fresh ids.
     *
     * @throws java.util.NoSuchElementException when the namespace does not exist
     */
    StoredJudgement save(
            String namespace, AnswerTrace answer, Judgement judgement, String similarity);

    /** The judgement with this id in this namespace; empty otherwise (also in another one). */
    Optional<StoredJudgement> find(String namespace, String id);

    /**
     * A repository over the store's database ({@code answer_traces}, {@code answer_judgements}).
     */
    static JudgementRepository sql(SqlAccess sql) {
        return new SqlJudgementRepository(sql);
    }
}
