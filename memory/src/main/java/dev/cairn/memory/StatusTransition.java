package dev.cairn.memory;

import java.time.Instant;
import java.util.Objects;

/**
 * One recorded status change of a memory. {@code actor} is who caused it ("system" for
 * maintenance), {@code reason} why ("" when none was given). Neither carries memory content.
 */
public record StatusTransition(
        String memoryId,
        MemoryStatus from,
        MemoryStatus to,
        Instant at,
        String actor,
        String reason) {

    /** Actor name used for transitions made by Cairn itself. */
    public static final String SYSTEM_ACTOR = "system";

    public StatusTransition {
        Objects.requireNonNull(memoryId, "memoryId");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(at, "at");
        actor = Objects.requireNonNull(actor, "actor").strip();
        reason = Objects.requireNonNull(reason, "reason").strip();
        if (actor.isEmpty()) {
            throw new IllegalArgumentException("illegal actor: '', must be non-blank");
        }
    }
}
