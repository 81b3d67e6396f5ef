package dev.cairn.agents.kv;

import java.time.Instant;
import java.util.Objects;

/**
 * One stored key/value entry.
 *
 * @param flagged whether write safety flagged the value: stored and readable by key, never searched
 */
public record KeyValueEntry(String key, String value, boolean flagged, Instant updatedAt) {

    /** Longest key in characters. */
    public static final int MAX_KEY_LENGTH = 1024;

    public KeyValueEntry {
        requireKey(key);
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    /** Checks a key: non-blank, at most {@link #MAX_KEY_LENGTH} characters. */
    public static String requireKey(String key) {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException("illegal key: blank, must have text");
        }
        if (key.length() > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException(
                    "illegal key: " + key.length() + " characters, must be <= " + MAX_KEY_LENGTH);
        }
        return key;
    }
}
