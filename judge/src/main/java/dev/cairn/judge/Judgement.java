package dev.cairn.judge;

import java.util.List;
import java.util.Objects;

/**
 * How well an answer is grounded in its evidence. Formulas are in the package documentation.
 *
 * <p>Immutable and thread-safe.
 *
 * @param citationCoverage share of claims with at least one supporting citation, in [0, 1]; 1 when
 *     the answer makes no claims
 * @param citationPrecision share of citations that support the claim they are attached to, in [0,
 *     1]; 1 when there are no citations
 * @param contradictionRate share of claims contradicted by any evidence, in [0, 1]; 0 when the
 *     answer makes no claims
 * @param policyCompliance weighted share of the policy's rules that passed, in [0, 1]
 * @param grounded {@code citationCoverage >= JudgeConfig.groundedCoverage() && contradictionRate ==
 *     0 &&} every policy rule passed
 * @param policy name of the policy that was checked
 * @param claims one verdict per claim, in answer order
 * @param rules one result per policy rule, in policy order
 * @param violations the failed rules
 */
public record Judgement(
        double citationCoverage,
        double citationPrecision,
        double contradictionRate,
        double policyCompliance,
        boolean grounded,
        String policy,
        List<ClaimVerdict> claims,
        List<RuleResult> rules,
        List<Violation> violations) {

    public Judgement {
        requireShare("citationCoverage", citationCoverage);
        requireShare("citationPrecision", citationPrecision);
        requireShare("contradictionRate", contradictionRate);
        requireShare("policyCompliance", policyCompliance);
        Objects.requireNonNull(policy, "policy");
        claims = List.copyOf(claims);
        rules = List.copyOf(rules);
        violations = List.copyOf(violations);
    }

    private static void requireShare(String name, double value) {
        if (!(value >= 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal " + name + ": " + value + ", must be in [0, 1]");
        }
    }
}
