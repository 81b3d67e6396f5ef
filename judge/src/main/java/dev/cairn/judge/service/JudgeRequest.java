package dev.cairn.judge.service;

import dev.cairn.judge.Evidence;
import java.util.List;
import java.util.Objects;

/**
 * One request to judge an answer: either a retrieval trace id or explicit evidence.
 *
 * <p>Immutable and thread-safe.
 *
 * @param query the question (may be empty)
 * @param answer the answer to judge
 * @param traceId a stored retrieval trace whose selected hits are the evidence; empty for none
 * @param evidence explicit evidence; must be empty when {@code traceId} is given
 * @param policy the policy to check, empty for the namespace's {@code default}
 */
public record JudgeRequest(
        String query, String answer, String traceId, List<Evidence> evidence, String policy) {

    public JudgeRequest {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(traceId, "traceId");
        evidence = List.copyOf(evidence);
        Objects.requireNonNull(policy, "policy");
        if (traceId.isBlank() && evidence.isEmpty()) {
            throw new IllegalArgumentException(
                    "no evidence: give a traceId or a non-empty evidence list");
        }
        if (!traceId.isBlank() && !evidence.isEmpty()) {
            throw new IllegalArgumentException(
                    "illegal request: traceId '" + traceId + "' and evidence, give only one");
        }
    }
}
