package dev.cairn.judge;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What to judge: an agent's answer to a query, the evidence it had, and what retrieval knew. The
 * server fills {@code evidence}, {@code plan} and {@code contradicts} from a stored trace when the
 * request names one.
 *
 * <p>Immutable and thread-safe.
 *
 * @param query the question the answer responds to (may be empty)
 * @param answer the answer text; citations inside it refer to {@code evidence}
 * @param evidence the evidence, in the order that {@code [1]}-style citations count (1-based); ids
 *     are unique
 * @param policy name of the policy in the {@link PolicyRegistry} to check; non-blank
 * @param plan the retrieval plan, {@link RetrievalPlan#UNKNOWN} when there is none
 * @param contradicts {@code contradicts} relations between evidence ids or entity names
 */
public record JudgeInput(
        String query,
        String answer,
        List<Evidence> evidence,
        String policy,
        RetrievalPlan plan,
        List<ContradictsRelation> contradicts) {

    public JudgeInput {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(plan, "plan");
        evidence = List.copyOf(evidence);
        contradicts = List.copyOf(contradicts);
        if (policy.isBlank()) {
            throw new IllegalArgumentException(
                    "illegal policy: '" + policy + "', must not be blank");
        }
        Set<String> ids = new HashSet<>();
        for (Evidence e : evidence) {
            if (!ids.add(e.id())) {
                throw new IllegalArgumentException(
                        "illegal evidence: duplicate id '" + e.id() + "', ids must be unique");
            }
        }
    }

    /** Input checked against the {@link PolicyRegistry#DEFAULT_POLICY default} policy. */
    public static JudgeInput of(String query, String answer, List<Evidence> evidence) {
        return new JudgeInput(
                query,
                answer,
                evidence,
                PolicyRegistry.DEFAULT_POLICY,
                RetrievalPlan.UNKNOWN,
                List.of());
    }

    /** A copy checked against the named policy. */
    public JudgeInput withPolicy(String policyName) {
        return new JudgeInput(query, answer, evidence, policyName, plan, contradicts);
    }

    /** A copy with the given retrieval plan. */
    public JudgeInput withPlan(RetrievalPlan retrievalPlan) {
        return new JudgeInput(query, answer, evidence, policy, retrievalPlan, contradicts);
    }

    /** A copy with the given {@code contradicts} relations. */
    public JudgeInput withContradicts(List<ContradictsRelation> relations) {
        return new JudgeInput(query, answer, evidence, policy, plan, relations);
    }
}
