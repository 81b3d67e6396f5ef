package dev.cairn.memory.service;

import dev.cairn.memory.AssembledContext;
import dev.cairn.memory.ScoredMemory;
import java.util.List;
import java.util.Objects;

/**
 * A recall answer: the memories best first with their score components, the context block assembled
 * from them, and whether the deadline cut the candidate search short.
 *
 * @param memories at most the request's limit, score desc then id asc
 * @param context the token-budgeted block (its {@code layers} are the included ids per layer)
 * @param partial true when a candidate search missed the deadline
 * @param tookMillis wall time of the recall
 */
public record RecallResult(
        List<ScoredMemory> memories, AssembledContext context, boolean partial, long tookMillis) {
    public RecallResult {
        memories = List.copyOf(memories);
        Objects.requireNonNull(context, "context");
    }
}
