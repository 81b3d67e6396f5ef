package dev.cairn.agents.search;

import java.util.Objects;

/** One searchable text: its id (unique in its namespace) and text. */
public record TextEntry(String id, String text) {
    public TextEntry {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("illegal id: empty, must have text");
        }
        Objects.requireNonNull(text, "text");
    }
}
