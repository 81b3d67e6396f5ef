package dev.cairn.safety;

/** Outcome of a write-safety check, ordered by severity. */
public enum Verdict {
    /** Store as is (after secret redaction). */
    ALLOW,
    /** Store disabled, for review; never recalled until enabled. */
    FLAG,
    /** Refuse the write: the server answers 422 naming the rule. */
    BLOCK;

    /** The more severe of the two. */
    public Verdict max(Verdict other) {
        return compareTo(other) >= 0 ? this : other;
    }
}
