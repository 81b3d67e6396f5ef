package dev.cairn.safety;

import java.util.Objects;

/**
 * A write refused by write safety (the server answers 422 naming the rule). The message names the
 * rule, never the text.
 */
public final class WriteBlockedException extends RuntimeException {

    private final SafetyRule rule;

    public WriteBlockedException(SafetyRule rule) {
        super(
                "write blocked by safety rule '"
                        + Objects.requireNonNull(rule, "rule").ruleName()
                        + "'",
                null,
                false,
                false);
        this.rule = rule;
    }

    /** Blocked by {@code rule} because of what field {@code field} holds; names the field. */
    public WriteBlockedException(SafetyRule rule, String field) {
        super(
                "write blocked by safety rule '"
                        + Objects.requireNonNull(rule, "rule").ruleName()
                        + "' in field '"
                        + Objects.requireNonNull(field, "field")
                        + "'",
                null,
                false,
                false);
        this.rule = rule;
    }

    public SafetyRule rule() {
        return rule;
    }
}
