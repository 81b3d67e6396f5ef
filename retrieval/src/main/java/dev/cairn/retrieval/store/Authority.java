package dev.cairn.retrieval.store;

/** How far a document can be trusted; retrieval splits evidence by it. */
public enum Authority {
    /** The source of truth for what it covers (an owned runbook, a policy). */
    AUTHORITATIVE,
    /** Useful context that does not decide anything on its own. */
    SUPPORTING,
    /** Not reviewed; the default. */
    UNVERIFIED
}
