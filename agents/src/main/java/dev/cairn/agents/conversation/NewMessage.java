package dev.cairn.agents.conversation;

import java.util.Objects;

/**
 * A message to append.
 *
 * @param json the message JSON exactly as it is to be stored (already redacted)
 * @param role the message's role ("" when it has none)
 * @param content its text content, for search ("" when it has none)
 * @param flagged whether write safety flagged it: stored, but kept out of search and extraction
 */
public record NewMessage(String json, String role, String content, boolean flagged) {
    public NewMessage {
        Objects.requireNonNull(json, "json");
        if (json.isBlank()) {
            throw new IllegalArgumentException("illegal json: blank, must be a JSON value");
        }
        role = Objects.requireNonNull(role, "role").strip();
        Objects.requireNonNull(content, "content");
    }
}
