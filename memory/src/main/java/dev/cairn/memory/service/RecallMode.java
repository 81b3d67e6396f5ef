package dev.cairn.memory.service;

import java.util.Locale;

/** Candidate signals of a recall. */
public enum RecallMode {
    /** BM25 only; no similarity threshold (there is no query vector). */
    LEXICAL,
    /** Cosine similarity only. */
    DENSE,
    /** Both, combined (the default). */
    HYBRID;

    /**
     * Parses a mode name, case-insensitively; {@code bm25} is an alias of LEXICAL.
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static RecallMode parse(String name) {
        String key = name.strip().toUpperCase(Locale.ROOT);
        if (key.equals("BM25")) {
            return LEXICAL;
        }
        for (RecallMode m : values()) {
            if (m.name().equals(key)) {
                return m;
            }
        }
        throw new IllegalArgumentException(
                "unknown recall mode: '" + name + "', must be one of [bm25, dense, hybrid]");
    }
}
