package dev.cairn.memory.service;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.memory.Memory;
import dev.cairn.memory.TurnWindows;
import java.util.ArrayList;
import java.util.List;

/**
 * Embeds memories and the windows of long conversation turns ({@link TurnWindows}) for a batch in
 * one call of the model. Stateless.
 */
public final class TurnWindowVectors {

    /**
     * A batch embedded.
     *
     * @param vectors each text's embedding, in order
     * @param windows each text's windows' vectors, in order (empty for none)
     */
    public record Embedded(List<float[]> vectors, List<List<float[]>> windows) {}

    private TurnWindowVectors() {}

    /**
     * Each memory's embedding and its windows' vectors, as a write stores them: what maintenance
     * and an import that embeds again store beside a memory.
     */
    public static Embedded embed(EmbeddingModel model, List<Memory> memories) {
        return embed(
                model,
                memories.stream().map(Memory::content).toList(),
                memories.stream().map(ConversationTurns::isTurn).toList());
    }

    /**
     * Each text's embedding and its windows' vectors: none for a text that is no conversation turn
     * ({@code turns} false) or whose own line is short.
     */
    static Embedded embed(EmbeddingModel model, List<String> contents, List<Boolean> turns) {
        return embed(model, contents, turns, true);
    }

    /** Each text's windows' vectors alone, as {@link #embed} gives them. */
    static List<List<float[]>> windowsOf(
            EmbeddingModel model, List<String> contents, List<Boolean> turns) {
        return embed(model, contents, turns, false).windows();
    }

    private static Embedded embed(
            EmbeddingModel model, List<String> contents, List<Boolean> turns, boolean whole) {
        List<String> all = new ArrayList<>(whole ? contents : List.of());
        List<Integer> counts = new ArrayList<>(contents.size());
        for (int i = 0; i < contents.size(); i++) {
            List<String> windows = turns.get(i) ? TurnWindows.of(contents.get(i)) : List.of();
            counts.add(windows.size());
            all.addAll(windows);
        }
        List<float[]> vectors = all.isEmpty() ? List.of() : model.embedDocuments(all);
        int next = whole ? contents.size() : 0;
        List<List<float[]>> windows = new ArrayList<>(contents.size());
        for (int count : counts) {
            windows.add(List.copyOf(vectors.subList(next, next + count)));
            next += count;
        }
        return new Embedded(
                whole ? List.copyOf(vectors.subList(0, contents.size())) : List.of(), windows);
    }
}
