package dev.cairn.graph;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What an entity is. Declared in front matter ({@code kind: service}) or guessed by the extractor
 * from the surface form.
 *
 * <p>Immutable and thread-safe.
 */
public enum EntityKind {
    /** A deployable service ({@code payments-api}). */
    SERVICE,
    /** A part of a service or of the platform. */
    COMPONENT,
    /** A database or data store. */
    DATABASE,
    /** A queue, topic or stream. */
    QUEUE,
    /** A host name ({@code db-primary.prod.internal}). */
    HOST,
    /** A monitoring alert ({@code KubePodCrashLooping}). */
    ALERT,
    /** A code identifier: snake_case, dotted.name or backticked. */
    IDENTIFIER,
    /** A named concept, often with an acronym ("Write-Ahead Log (WAL)"). */
    CONCEPT,
    /** A team or person. */
    TEAM,
    /** Anything else. */
    OTHER;

    /**
     * Wire name, lower case.
     *
     * @return the wire name
     */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a wire name, case-insensitive.
     *
     * @param name a kind such as {@code service}
     * @return the kind
     * @throws IllegalArgumentException naming the allowed values when {@code name} is unknown
     */
    public static EntityKind parse(String name) {
        if (name != null) {
            String normalized = name.strip().replace('-', '_').toUpperCase(Locale.ROOT);
            for (EntityKind kind : values()) {
                if (kind.name().equals(normalized)) {
                    return kind;
                }
            }
        }
        throw new IllegalArgumentException(
                "unknown entity kind: "
                        + name
                        + ", must be one of "
                        + Arrays.stream(values())
                                .map(EntityKind::wireName)
                                .collect(Collectors.joining(", ")));
    }
}
