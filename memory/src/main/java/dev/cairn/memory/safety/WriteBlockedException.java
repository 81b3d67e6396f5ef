package dev.cairn.memory.safety;

import java.util.Objects;

/**
 * A write refused by {@link WriteSafety} (verdict BLOCK). The server answers 422 naming {@link
 * #rule()}. The message names the rule and the target, never the text.
 */
public final class WriteBlockedException extends RuntimeException {

    private final SafetyRule rule;

    public WriteBlockedException(SafetyRule rule, WriteTarget target) {
        super(
                "write blocked by safety rule '"
                        + Objects.requireNonNull(rule, "rule").ruleName()
                        + "' ("
                        + Objects.requireNonNull(target, "target")
                                .name()
                                .toLowerCase(java.util.Locale.ROOT)
                        + ")",
                null,
                false,
                false);
        this.rule = rule;
    }

    public SafetyRule rule() {
        return rule;
    }

    /** Throws when {@code guarded} is blocked; returns it otherwise. */
    public static WriteGuard.Guarded check(WriteGuard.Guarded guarded, WriteTarget target) {
        if (guarded.blocked()) {
            throw new WriteBlockedException(
                    guarded.safety().firstBlocking().orElseThrow().rule(), target);
        }
        return guarded;
    }
}
