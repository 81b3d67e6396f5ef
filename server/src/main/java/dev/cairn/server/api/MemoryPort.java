package dev.cairn.server.api;

import dev.cairn.api.body.RecallBody;
import dev.cairn.api.view.MemoryView;
import dev.cairn.api.view.RecallAnswer;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;

/**
 * What the governance routes need from durable memory: write one (proposal apply, extract), read
 * one's JSON view, check for an exact duplicate (extraction's quality gate) and recall (the {@code
 * recall_memory} tool). The memory service implements it; the server wires it. Implementations are
 * thread-safe.
 */
public interface MemoryPort {

    /** What a write stored: the memory's id and its view. */
    record Written(String id, MemoryView view) {}

    /**
     * Writes a memory through the memory service's write path.
     *
     * @throws dev.cairn.safety.WriteBlockedException when write safety blocks it
     */
    Written write(NewMemory memory, String actor);

    /** The view of a memory ({@link java.util.NoSuchElementException} when unknown). */
    MemoryView view(String namespace, String id);

    /** Whether a memory with the same normalised content exists in the scope with that type. */
    boolean exists(Scope scope, MemoryType type, String content);

    /** Runs a recall and answers its view. */
    RecallAnswer recall(String namespace, RecallBody request);
}
