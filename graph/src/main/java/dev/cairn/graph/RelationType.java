package dev.cairn.graph;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Typed relation between graph nodes, with its default proximity weight (API.md, "Relation types
 * and their default fusion weights").
 *
 * <p>A weight is the factor a path pays for crossing an edge of this type; {@link #CONTRADICTS}
 * weighs 0, so a contradicting entity or document never raises a hit. Names on the wire are
 * snake_case ({@code depends_on}); {@link #parse(String)} reads them.
 *
 * <p>Immutable and thread-safe.
 */
public enum RelationType {
    /** A runbook or policy governs an entity (it is the authority on it). */
    GOVERNS(1.0),
    /** A document or entity replaces an older one. */
    SUPERSEDES(0.95),
    /** Needs the target to work. */
    DEPENDS_ON(0.8),
    /** Is a component of the target. */
    PART_OF(0.7),
    /** Loosely related. */
    RELATED_TO(0.5),
    /** A chunk mentions an entity. */
    MENTIONS(0.35),
    /** Disagrees with the target; never raises a hit. */
    CONTRADICTS(0.0);

    private final double defaultWeight;

    RelationType(double defaultWeight) {
        this.defaultWeight = defaultWeight;
    }

    /**
     * Default weight of this relation type in [0, 1].
     *
     * @return the weight
     */
    public double defaultWeight() {
        return defaultWeight;
    }

    /**
     * Wire name, snake_case lower case ({@code depends_on}).
     *
     * @return the wire name
     */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a wire name; case-insensitive, {@code -} and {@code _} are interchangeable.
     *
     * @param name a relation type name such as {@code depends_on}
     * @return the relation type
     * @throws IllegalArgumentException naming the allowed values when {@code name} is unknown
     */
    public static RelationType parse(String name) {
        if (name != null) {
            String normalized = name.strip().replace('-', '_').toUpperCase(Locale.ROOT);
            for (RelationType type : values()) {
                if (type.name().equals(normalized)) {
                    return type;
                }
            }
        }
        throw new IllegalArgumentException(
                "unknown relation type: "
                        + name
                        + ", must be one of "
                        + Arrays.stream(values())
                                .map(RelationType::wireName)
                                .collect(Collectors.joining(", ")));
    }
}
