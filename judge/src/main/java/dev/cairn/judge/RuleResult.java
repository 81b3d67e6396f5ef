package dev.cairn.judge;

import java.util.Objects;

/**
 * The outcome of one policy rule.
 *
 * <p>Immutable and thread-safe.
 *
 * @param rule the rule's name in its policy
 * @param kind the rule's kind
 * @param passed whether the answer complies (rules that do not apply pass)
 * @param weight the rule's weight in {@link Judgement#policyCompliance()}, {@code > 0}
 * @param detail why it passed or failed, without quoting secrets
 */
public record RuleResult(
        String rule, PolicyRule.Kind kind, boolean passed, double weight, String detail) {

    public RuleResult {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
        if (!(weight > 0) || !Double.isFinite(weight)) {
            throw new IllegalArgumentException(
                    "illegal weight: " + weight + ", must be > 0 and finite");
        }
    }
}
