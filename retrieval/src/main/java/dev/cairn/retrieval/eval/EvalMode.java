package dev.cairn.retrieval.eval;

import dev.cairn.retrieval.fusion.SignalWeights;
import java.util.Locale;

/** A retrieval configuration under evaluation: one signal alone, or the hybrid. */
public enum EvalMode {
    BM25(SignalWeights.of(1, 0, 0)),
    DENSE(SignalWeights.of(0, 1, 0)),
    GRAPH(SignalWeights.of(0, 0, 1)),
    HYBRID(SignalWeights.DEFAULTS);

    private final SignalWeights weights;

    EvalMode(SignalWeights weights) {
        this.weights = weights;
    }

    public SignalWeights weights() {
        return weights;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static EvalMode parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unknown mode: '" + name + "', must be one of bm25, dense, graph, hybrid");
        }
    }
}
