package dev.cairn.judge.store;

import dev.cairn.judge.Evidence;
import dev.cairn.judge.RetrievalPlan;
import java.util.List;
import java.util.Objects;

/**
 * An answer submitted for judging, with what it was judged against.
 *
 * <p>Immutable and thread-safe.
 *
 * @param query the question (may be empty)
 * @param answer the answer text
 * @param evidence the evidence used, in citation order
 * @param traceId the retrieval trace the evidence came from, empty when it was given explicitly
 * @param policy the policy checked, non-blank
 * @param plan the retrieval plan, {@link RetrievalPlan#UNKNOWN} without a trace
 */
public record AnswerTrace(
        String query,
        String answer,
        List<Evidence> evidence,
        String traceId,
        String policy,
        RetrievalPlan plan) {

    public AnswerTrace {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(answer, "answer");
        evidence = List.copyOf(evidence);
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(plan, "plan");
        if (policy.isBlank()) {
            throw new IllegalArgumentException(
                    "illegal policy: '" + policy + "', must not be blank");
        }
    }
}
