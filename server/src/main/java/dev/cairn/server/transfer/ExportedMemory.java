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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A memory as one line of the export file: every stored field (statuses, provenance, recall
 * bookkeeping, soft deletion), its vector with the model that computed it, its turn windows'
 * vectors, and its status history. The namespace is the file's; the content hash is computed again
 * on import.
 *
 * @param windows the turn windows' vectors ({@link dev.cairn.memory.TurnWindows}) one after
 *     another, as {@code vector} is written; empty when the memory has none, null when they were
 *     not computed (or in a file of version 1 or 2), so the importing server computes them
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
        String windows,
        List<Transition> history) {

    static final String TYPE = "memory";

    /** One status change, as {@link StatusTransition} without the memory id. */
    record Transition(
            MemoryStatus from, MemoryStatus to, Instant at, String actor, String reason) {}

    static ExportedMemory of(
            Memory m,
            float[] vector,
            Optional<List<float[]>> windows,
            List<StatusTransition> history) {
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
                vector.length == 0 ? null : windows.map(ExportedMemory::packed).orElse(null),
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

    private static String packed(List<float[]> windows) {
        int length = windows.stream().mapToInt(w -> w.length).sum();
        float[] all = new float[length];
        int at = 0;
        for (float[] w : windows) {
            System.arraycopy(w, 0, all, at, w.length);
            at += w.length;
        }
        return ExportFormat.encode(all);
    }

    /**
     * The turn windows' vectors of {@code dimensions} each, null when the file does not give them.
     *
     * @throws IllegalArgumentException when they are given without a vector, or are not a whole
     *     number of vectors of that length
     */
    List<float[]> windowVectors(int dimensions) {
        if (windows == null) {
            return null;
        }
        if (vector.isEmpty()) {
            throw new IllegalArgumentException(
                    "illegal windows of memory '" + id + "': windows with no vector");
        }
        float[] all;
        try {
            all = ExportFormat.decode(windows);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "illegal windows of memory '" + id + "': " + e.getMessage(), e);
        }
        if (dimensions <= 0 || all.length % dimensions != 0) {
            throw new IllegalArgumentException(
                    "illegal windows of memory '"
                            + id
                            + "': "
                            + all.length
                            + " numbers, not a whole number of "
                            + dimensions
                            + "-dimensional vectors");
        }
        List<float[]> out = new ArrayList<>(all.length / dimensions);
        for (int at = 0; at < all.length; at += dimensions) {
            out.add(Arrays.copyOfRange(all, at, at + dimensions));
        }
        return out;
    }

    List<StatusTransition> transitions() {
        return history.stream()
                .map(t -> new StatusTransition(id, t.from(), t.to(), t.at(), t.actor(), t.reason()))
                .toList();
    }
}
