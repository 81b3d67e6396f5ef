package dev.cairn.judge.store;

import dev.cairn.judge.Judgement;
import java.time.Instant;
import java.util.Objects;

/**
 * A persisted judgement with the answer it judged.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id the judgement id, non-blank
 * @param answerId the id of the answer trace row
 * @param namespace the namespace it belongs to
 * @param answer the judged answer and its evidence
 * @param judgement the judgement
 * @param similarity name of the similarity function that judged it
 * @param createdAt when it was judged
 */
public record StoredJudgement(
        String id,
        String answerId,
        String namespace,
        AnswerTrace answer,
        Judgement judgement,
        String similarity,
        Instant createdAt) {

    public StoredJudgement {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(answerId, "answerId");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(judgement, "judgement");
        Objects.requireNonNull(similarity, "similarity");
        Objects.requireNonNull(createdAt, "createdAt");
        if (id.isBlank()) {
            throw new IllegalArgumentException("illegal id: '" + id + "', must not be blank");
        }
    }
}
