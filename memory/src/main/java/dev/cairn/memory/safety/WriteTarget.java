package dev.cairn.memory.safety;

/** What is being written; selects the size limit. */
public enum WriteTarget {
    MEMORY,
    PROPOSAL,
    MESSAGE
}
