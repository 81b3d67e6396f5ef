package dev.cairn.store;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Validation shared by the records of the store and of the modules that keep tables in it (each
 * names the bad value). Not API. Stateless, thread-safe.
 */
public final class Records {

    private Records() {}

    public static String requireText(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(
                    "illegal " + name + ": '" + value + "', must not be blank");
        }
        return value;
    }

    public static List<String> copyStrings(List<String> values, String name) {
        Objects.requireNonNull(values, name);
        for (String v : values) {
            if (v == null) {
                throw new IllegalArgumentException("illegal " + name + ": contains null");
            }
        }
        return List.copyOf(values);
    }

    public static Map<String, String> copyMap(Map<String, String> values, String name) {
        Objects.requireNonNull(values, name);
        for (var e : values.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                throw new IllegalArgumentException("illegal " + name + ": contains null");
            }
        }
        return Map.copyOf(values);
    }

    public static void requireFinite(float[] vector, String name) {
        for (int i = 0; i < vector.length; i++) {
            if (!Float.isFinite(vector[i])) {
                throw new IllegalArgumentException(
                        "illegal " + name + "[" + i + "]: " + vector[i] + ", must be finite");
            }
        }
    }
}
