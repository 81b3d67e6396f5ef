package dev.cairn.memory;

import java.util.List;
import java.util.Objects;

/**
 * A memory after a lifecycle step and the status transitions the step made (empty when the status
 * did not change). The store persists both in one unit of work.
 */
public record Transitioned(Memory memory, List<StatusTransition> transitions) {
    public Transitioned {
        Objects.requireNonNull(memory, "memory");
        transitions = List.copyOf(transitions);
    }
}
