package dev.cairn.judge;

import java.util.Objects;

/**
 * A policy rule the answer broke.
 *
 * <p>Immutable and thread-safe.
 *
 * @param rule the rule's name in its policy
 * @param detail what was wrong, without quoting secrets
 */
public record Violation(String rule, String detail) {

    public Violation {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(detail, "detail");
    }
}
