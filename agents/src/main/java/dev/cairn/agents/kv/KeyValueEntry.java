package dev.cairn.agents.kv;

import dev.cairn.store.Identifiers;
import java.time.Instant;
import java.util.Objects;

/**
 * One stored key/value entry.
 *
 * @param flagged whether write safety flagged the value: stored and readable by key, never searched
 */
public record KeyValueEntry(String key, String value, boolean flagged, Instant updatedAt) {

    /** Longest key in characters. */
    public static final int MAX_KEY_LENGTH = Identifiers.MAX_KEY_LENGTH;

    public KeyValueEntry {
        requireKey(key);
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    /**
     * Checks a key against the identifier alphabet ({@link
     * dev.cairn.store.Identifiers#requireKey}).
     */
    public static String requireKey(String key) {
        return Identifiers.requireKey(key, "key");
    }
}
