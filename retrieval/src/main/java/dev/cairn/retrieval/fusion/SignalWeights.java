package dev.cairn.retrieval.fusion;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Per-request weight of each signal. A signal without a weight, or with weight 0, is left out of
 * fusion entirely.
 *
 * @param weights weight per signal, each finite and {@code >= 0}
 */
public record SignalWeights(Map<Signal, Double> weights) {

    /** Default lexical weight (API.md). */
    public static final double DEFAULT_LEXICAL = 1.0;

    /** Default dense weight (API.md). */
    public static final double DEFAULT_DENSE = 1.0;

    /**
     * Default graph weight: 1, not API.md's original 0.5. Under rank fusion a runbook that shares
     * no word with the question has no lexical rank, and with weight 0.5 even dense rank 1 plus
     * graph rank 1 ({@code 1/61 + 0.5/61}) stays below chunks that bm25 and dense both put in their
     * top 5: the case the graph exists for could never reach the top 3. With 1 it does (the
     * fixture's fail-over question), and on SciFact, where queries rarely name a declared entity,
     * the graph signal seldom fires (README, "Entity graph").
     */
    public static final double DEFAULT_GRAPH = 1.0;

    /** The defaults: lexical 1, dense 1, graph 1. */
    public static final SignalWeights DEFAULTS = of(DEFAULT_LEXICAL, DEFAULT_DENSE, DEFAULT_GRAPH);

    public SignalWeights {
        EnumMap<Signal, Double> copy = new EnumMap<>(Signal.class);
        weights.forEach(
                (s, w) -> {
                    if (s == null || w == null || !(w >= 0) || Double.isInfinite(w)) {
                        throw new IllegalArgumentException(
                                "illegal weight: " + w + " for " + s + ", must be >= 0 and finite");
                    }
                    copy.put(s, w);
                });
        weights = Collections.unmodifiableMap(copy);
    }

    /** Weights of the three signals. */
    public static SignalWeights of(double lexical, double dense, double graph) {
        return new SignalWeights(
                Map.of(Signal.LEXICAL, lexical, Signal.DENSE, dense, Signal.GRAPH, graph));
    }

    /** Weight of {@code signal}; 0 when not given. */
    public double weight(Signal signal) {
        return weights.getOrDefault(signal, 0.0);
    }

    /** These weights multiplied by {@code factor} ({@code > 0}). */
    public SignalWeights scaled(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException(
                    "illegal factor: " + factor + ", must be > 0 and finite");
        }
        EnumMap<Signal, Double> scaled = new EnumMap<>(Signal.class);
        weights.forEach((s, w) -> scaled.put(s, w * factor));
        return new SignalWeights(scaled);
    }

    /**
     * These weights with {@code signal}'s multiplied by {@code factor} ({@code >= 0}); a signal
     * without a weight stays without one.
     */
    public SignalWeights scaled(Signal signal, double factor) {
        if (!(factor >= 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException(
                    "illegal factor: " + factor + ", must be >= 0 and finite");
        }
        EnumMap<Signal, Double> scaled = new EnumMap<>(weights);
        scaled.computeIfPresent(signal, (s, w) -> w * factor);
        return new SignalWeights(scaled);
    }
}
