package dev.cairn.memory;

import java.util.EnumSet;
import java.util.Set;

/**
 * Lifecycle status of a memory, with the explicit allowed transitions.
 *
 * <pre>
 * ACTIVE     -> STALE        past its TTL (maintenance)
 * ACTIVE     -> SUPERSEDED   a newer memory with the same conflictKey and scope arrived
 * STALE      -> ACTIVE       reinforcement: the same or a near-duplicate memory was written again
 * STALE      -> SUPERSEDED   as from ACTIVE
 * any        -> INVALIDATED  on request, with a reason (not from INVALIDATED itself)
 * REJECTED                   only as the initial status of a candidate that failed the quality
 *                            gate; it can only be invalidated afterwards
 * </pre>
 *
 * <p>STALE -> ACTIVE is allowed on purpose: staleness only says nobody confirmed the memory within
 * its TTL; writing it again confirms it, and reviving keeps its id, history and recall count
 * instead of creating a twin. SUPERSEDED and INVALIDATED never come back to ACTIVE: a replaced or
 * known-wrong memory is restored by writing a new one.
 */
public enum MemoryStatus {
    ACTIVE,
    STALE,
    SUPERSEDED,
    INVALIDATED,
    REJECTED;

    /** Statuses this status may move to. */
    public Set<MemoryStatus> allowedTargets() {
        return switch (this) {
            case ACTIVE -> EnumSet.of(STALE, SUPERSEDED, INVALIDATED);
            case STALE -> EnumSet.of(ACTIVE, SUPERSEDED, INVALIDATED);
            case SUPERSEDED, REJECTED -> EnumSet.of(INVALIDATED);
            case INVALIDATED -> EnumSet.noneOf(MemoryStatus.class);
        };
    }

    /** Whether the transition {@code this -> to} is allowed. */
    public boolean canTransitionTo(MemoryStatus to) {
        return allowedTargets().contains(to);
    }

    /**
     * Checks the transition {@code this -> to}.
     *
     * @throws IllegalStateException naming both statuses when the transition is not allowed
     */
    public void checkTransitionTo(MemoryStatus to) {
        if (!canTransitionTo(to)) {
            throw new IllegalStateException(
                    "illegal status transition: "
                            + this
                            + " -> "
                            + to
                            + ", allowed from "
                            + this
                            + ": "
                            + allowedTargets());
        }
    }

    /** Whether recall may return memories in this status. */
    public boolean recallable() {
        return this == ACTIVE;
    }

    /**
     * Parses a status name, case-insensitively.
     *
     * @throws IllegalArgumentException naming the allowed values when {@code name} is unknown
     */
    public static MemoryStatus parse(String name) {
        return Names.parse(MemoryStatus.class, "memory status", name);
    }
}
