package dev.cairn.safety;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Redacted text and how many secrets of each kind were replaced. Never carries a secret.
 *
 * @param text the input with every secret replaced by its {@link SecretKind#marker()}
 * @param counts replacements per kind; kinds not found are absent
 */
public record RedactionResult(String text, Map<SecretKind, Integer> counts) {
    public RedactionResult {
        Objects.requireNonNull(text, "text");
        Map<SecretKind, Integer> copy = new EnumMap<>(SecretKind.class);
        copy.putAll(counts);
        counts = Map.copyOf(copy);
    }

    /** Whether anything was replaced. */
    public boolean redacted() {
        return !counts.isEmpty();
    }

    /** Total number of replacements. */
    public int total() {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }
}
