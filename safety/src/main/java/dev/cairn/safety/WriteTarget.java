package dev.cairn.safety;

/** What is being written; selects the size limit and, for messages, softer text rules. */
public enum WriteTarget {
    /** A durable memory: every rule with its own verdict. */
    MEMORY,
    /** A memory, policy, workflow or skill proposal: as MEMORY. */
    PROPOSAL,
    /**
     * One conversation message, checked on its text content (not its JSON envelope). A transcript
     * is a record of what was said, so text rules (injection, exfiltration, template tokens) only
     * FLAG it: it is stored, marked, and kept out of extraction. Tool-call lookalikes are not
     * checked, as messages are chat turns by nature. Character rules and size still BLOCK.
     */
    MESSAGE
}
