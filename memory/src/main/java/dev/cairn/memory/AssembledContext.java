package dev.cairn.memory;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A composed context block.
 *
 * @param text the block, ready for a prompt ("" when nothing fit)
 * @param tokens {@code counter.count(text)}, never above the budget
 * @param layers ids included per layer, in composition order; layers without entries are absent
 * @param truncated ids whose content was shortened
 * @param omitted ids that did not fit at all
 */
public record AssembledContext(
        String text,
        int tokens,
        Map<Layer, List<String>> layers,
        List<String> truncated,
        List<String> omitted) {
    public AssembledContext {
        Objects.requireNonNull(text, "text");
        if (tokens < 0) {
            throw new IllegalArgumentException("illegal tokens: " + tokens + ", must be >= 0");
        }
        Map<Layer, List<String>> copy = new EnumMap<>(Layer.class);
        layers.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        layers = Collections.unmodifiableMap(copy);
        truncated = List.copyOf(truncated);
        omitted = List.copyOf(omitted);
    }

    /** All included ids in composition order. */
    public List<String> includedIds() {
        return layers.values().stream().flatMap(List::stream).toList();
    }
}
