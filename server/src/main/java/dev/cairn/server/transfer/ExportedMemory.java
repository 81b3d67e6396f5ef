package dev.cairn.server.transfer;

import dev.cairn.memory.Layer;
import dev.cairn.memory.Memory;
import dev.cairn.memory.MemorySource;
import dev.cairn.memory.MemoryStatus;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.Scope;
import dev.cairn.memory.StatusTransition;
import dev.cairn.memory.TextNormalizer;
import java.time.Instant;
import java.util.List;

/**
 * A memory as one line of the export file: every stored field (statuses, provenance, recall
 * bookkeeping, soft deletion), its vector with the model that computed it, and its status history.
 * The namespace is the file's; the content hash is computed again on import.
 */
record ExportedMemory(
        String type,
        String id,
        String userId,
        String agentId,
        String sessionName,
        String taskName,
        String parentTask,
        MemoryType memoryType,
        Layer layer,
        MemoryStatus status,
        String content,
        List<String> tags,
        double confidence,
        double importance,
        String conflictKey,
        MemorySource.Kind sourceKind,
        String sourceRef,
        Instant createdAt,
        Instant updatedAt,
        Instant expiresAt,
        Instant lastRecalledAt,
        long recalledCount,
        boolean disabled,
        boolean deleted,
        String embeddingModel,
        String vector,
        List<Transition> history) {

    static final String TYPE = "memory";

    /** One status change, as {@link StatusTransition} without the memory id. */
    record Transition(
            MemoryStatus from, MemoryStatus to, Instant at, String actor, String reason) {}

    static ExportedMemory of(Memory m, float[] vector, List<StatusTransition> history) {
        Scope s = m.scope();
        return new ExportedMemory(
                TYPE,
                m.id(),
                s.userId(),
                s.agentId(),
                s.sessionName(),
                s.taskName(),
                s.parentTask(),
                m.type(),
                m.layer(),
                m.status(),
                m.content(),
                m.tags(),
                m.confidence(),
                m.importance(),
                m.conflictKey(),
                m.source().kind(),
                m.source().reference(),
                m.createdAt(),
                m.updatedAt(),
                m.expiresAt(),
                m.lastRecalledAt(),
                m.recalledCount(),
                m.disabled(),
                m.deleted(),
                vector.length == 0 ? "" : m.embeddingModel(),
                vector.length == 0 ? "" : ExportFormat.encode(vector),
                history.stream()
                        .map(t -> new Transition(t.from(), t.to(), t.at(), t.actor(), t.reason()))
                        .toList());
    }

    /**
     * The memory this line describes, in {@code namespace}, recording {@code embeddingModel}.
     *
     * @throws IllegalArgumentException (or NullPointerException) naming what is missing or illegal
     */
    Memory memory(String namespace, String embeddingModel) {
        return new Memory(
                id,
                new Scope(namespace, userId, agentId, sessionName, taskName, parentTask),
                memoryType,
                layer,
                status,
                content,
                TextNormalizer.contentHash(content),
                tags,
                confidence,
                importance,
                conflictKey,
                new MemorySource(sourceKind, sourceRef),
                createdAt,
                updatedAt,
                expiresAt,
                lastRecalledAt,
                recalledCount,
                disabled,
                deleted,
                embeddingModel);
    }

    List<StatusTransition> transitions() {
        return history.stream()
                .map(t -> new StatusTransition(id, t.from(), t.to(), t.at(), t.actor(), t.reason()))
                .toList();
    }
}
