package dev.cairn.retrieval.store;

import java.util.Locale;

/** How far a document can be trusted; retrieval splits evidence by it. */
public enum Authority {
    /** The source of truth for what it covers (an owned runbook, a policy). */
    AUTHORITATIVE,
    /** Useful context that does not decide anything on its own. */
    SUPPORTING,
    /** Not reviewed; the default. */
    UNVERIFIED;

    /** The authority of a document that declares none. */
    public static final Authority DEFAULT = UNVERIFIED;

    /** Parses the lower-case name used in front matter and JSON. */
    public static Authority parse(String value) {
        String key = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        for (Authority a : values()) {
            if (a.key().equals(key)) {
                return a;
            }
        }
        throw new IllegalArgumentException(
                "illegal authority: '"
                        + value
                        + "', must be one of authoritative, supporting, unverified");
    }

    /** Lower-case name, as in front matter and JSON. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
