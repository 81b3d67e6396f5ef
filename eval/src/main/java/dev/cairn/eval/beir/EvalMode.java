package dev.cairn.eval.beir;

import dev.cairn.retrieval.fusion.SignalWeights;
import java.util.Locale;

/**
 * A retrieval configuration under evaluation: one signal alone, bm25 + dense ({@code hybrid}), or
 * the full default hybrid with the graph ({@code hybrid-graph}).
 */
public enum EvalMode {
    BM25(SignalWeights.of(1, 0, 0)),
    DENSE(SignalWeights.of(0, 1, 0)),
    GRAPH(SignalWeights.of(0, 0, 1)),
    /** Lexical and dense, no graph (weights 1, 1, 0). */
    HYBRID(SignalWeights.of(SignalWeights.DEFAULT_LEXICAL, SignalWeights.DEFAULT_DENSE, 0)),
    /** The default retrieve weights, graph included (1, 1, 1). */
    HYBRID_GRAPH(SignalWeights.DEFAULTS);

    private final SignalWeights weights;

    EvalMode(SignalWeights weights) {
        this.weights = weights;
    }

    public SignalWeights weights() {
        return weights;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static EvalMode parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "unknown mode: '"
                            + name
                            + "', must be one of bm25, dense, graph, hybrid,"
                            + " hybrid-graph");
        }
    }
}
