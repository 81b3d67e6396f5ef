package dev.cairn.memory;

import java.time.Duration;

/** Types of memory, each with its default time to live and default {@link Layer}. */
public enum MemoryType {
    FACT(730, Layer.EPISODIC),
    EVENT(365, Layer.EPISODIC),
    PREFERENCE(730, Layer.EPISODIC),
    DECISION(730, Layer.EPISODIC),
    PROBLEM(365, Layer.EPISODIC),
    COMMIT(365, Layer.EPISODIC),
    RELATIONSHIP(730, Layer.CONVERSATIONAL),
    TASK(90, Layer.PROACTIVE),
    PROCEDURE(365, Layer.PROCEDURAL);

    private final int defaultTtlDays;
    private final Layer defaultLayer;

    MemoryType(int defaultTtlDays, Layer defaultLayer) {
        this.defaultTtlDays = defaultTtlDays;
        this.defaultLayer = defaultLayer;
    }

    /** Default time to live in days (API.md). */
    public int defaultTtlDays() {
        return defaultTtlDays;
    }

    /** Default time to live as a duration. */
    public Duration defaultTtl() {
        return Duration.ofDays(defaultTtlDays);
    }

    /** The layer a memory of this type goes to when the writer names none. */
    public Layer defaultLayer() {
        return defaultLayer;
    }

    /**
     * Parses a type name, case-insensitively.
     *
     * @throws IllegalArgumentException naming the allowed values when {@code name} is unknown
     */
    public static MemoryType parse(String name) {
        return Names.parse(MemoryType.class, "memory type", name);
    }
}
