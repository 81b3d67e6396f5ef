package dev.cairn.memory.service;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.memory.TurnWindows;
import java.util.ArrayList;
import java.util.List;

/**
 * Embeds the windows of long conversation turns ({@link TurnWindows}) for a batch of memories in
 * one call of the model. Stateless.
 */
final class TurnWindowVectors {

    private TurnWindowVectors() {}

    /**
     * Each text's windows' vectors, in order: empty for a text that is no conversation turn ({@code
     * turns} false) or whose own line is short.
     */
    static List<List<float[]>> of(
            EmbeddingModel model, List<String> contents, List<Boolean> turns) {
        List<List<String>> texts = new ArrayList<>(contents.size());
        List<String> all = new ArrayList<>();
        for (int i = 0; i < contents.size(); i++) {
            List<String> windows = turns.get(i) ? TurnWindows.of(contents.get(i)) : List.of();
            texts.add(windows);
            all.addAll(windows);
        }
        List<float[]> vectors = all.isEmpty() ? List.of() : model.embedDocuments(all);
        List<List<float[]>> out = new ArrayList<>(contents.size());
        int next = 0;
        for (List<String> windows : texts) {
            out.add(List.copyOf(vectors.subList(next, next + windows.size())));
            next += windows.size();
        }
        return out;
    }
}
