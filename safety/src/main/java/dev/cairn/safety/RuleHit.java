package dev.cairn.safety;

import java.util.Objects;

/** One rule match: the rule, its verdict, and the offset (UTF-16 index) in the checked text. */
public record RuleHit(SafetyRule rule, Verdict verdict, int offset) {
    public RuleHit {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(verdict, "verdict");
        if (offset < 0) {
            throw new IllegalArgumentException("illegal offset: " + offset + ", must be >= 0");
        }
    }

    static RuleHit of(SafetyRule rule, int offset) {
        return new RuleHit(rule, rule.verdict(), offset);
    }
}
