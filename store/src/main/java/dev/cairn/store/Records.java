package dev.cairn.store;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Validation shared by the store's records. */
final class Records {

    private Records() {}

    static String requireText(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(
                    "illegal " + name + ": '" + value + "', must not be blank");
        }
        return value;
    }

    static List<String> copyStrings(List<String> values, String name) {
        Objects.requireNonNull(values, name);
        for (String v : values) {
            if (v == null) {
                throw new IllegalArgumentException("illegal " + name + ": contains null");
            }
        }
        return List.copyOf(values);
    }

    static Map<String, String> copyMap(Map<String, String> values, String name) {
        Objects.requireNonNull(values, name);
        for (var e : values.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                throw new IllegalArgumentException("illegal " + name + ": contains null");
            }
        }
        return Map.copyOf(values);
    }

    static void requireFinite(float[] vector, String name) {
        for (int i = 0; i < vector.length; i++) {
            if (!Float.isFinite(vector[i])) {
                throw new IllegalArgumentException(
                        "illegal " + name + "[" + i + "]: " + vector[i] + ", must be finite");
            }
        }
    }
}
