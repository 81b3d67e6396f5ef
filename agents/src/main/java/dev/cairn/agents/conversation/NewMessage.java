package dev.cairn.agents.conversation;

import java.util.List;
import java.util.Objects;

/**
 * A message to append.
 *
 * @param json the message JSON exactly as it is to be stored (already redacted)
 * @param role the message's role ("" when it has none)
 * @param content its text content, for search ("" when it has none)
 * @param flagged whether write safety flagged it: stored, but kept out of search and extraction
 * @param flags the write-safety rule names that matched (empty when none)
 */
public record NewMessage(
        String json, String role, String content, boolean flagged, List<String> flags) {

    /** A message without rule names (flagged or not). */
    public NewMessage(String json, String role, String content, boolean flagged) {
        this(json, role, content, flagged, List.of());
    }

    public NewMessage {
        flags = List.copyOf(flags);
        if (!flags.isEmpty() && !flagged) {
            throw new IllegalArgumentException(
                    "illegal flags: " + flags + " on an unflagged message");
        }
        Objects.requireNonNull(json, "json");
        if (json.isBlank()) {
            throw new IllegalArgumentException("illegal json: blank, must be a JSON value");
        }
        role = Objects.requireNonNull(role, "role").strip();
        Objects.requireNonNull(content, "content");
    }
}
