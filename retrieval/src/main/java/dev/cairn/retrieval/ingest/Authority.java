package dev.cairn.retrieval.ingest;

import java.util.Locale;

/** How far a document can be trusted, as declared in its front matter. */
public enum Authority {
    /** The source of truth for what it governs. */
    AUTHORITATIVE,
    /** Useful background, not binding. */
    SUPPORTING,
    /** Not reviewed; the default. */
    UNVERIFIED;

    /** The default authority of a document that declares none. */
    public static final Authority DEFAULT = UNVERIFIED;

    /** Parses the lower-case name used in front matter and JSON. */
    public static Authority parse(String value) {
        for (Authority a : values()) {
            if (a.key().equals(value)) {
                return a;
            }
        }
        throw new IllegalArgumentException(
                "illegal authority: '"
                        + value
                        + "', must be one of authoritative, supporting, unverified");
    }

    /** Lower-case name, as in front matter. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
