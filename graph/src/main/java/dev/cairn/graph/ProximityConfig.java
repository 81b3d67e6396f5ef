package dev.cairn.graph;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of {@link GraphSignal}.
 *
 * @param strategy proximity algorithm
 * @param maxHops longest path in edges, 1..8; default {@link #DEFAULT_MAX_HOPS}
 * @param hopDecay factor per hop in (0, 1]; default {@link #DEFAULT_HOP_DECAY}
 * @param supersededPenalty factor on chunks of a superseded document, in [0, 1); default {@link
 *     #DEFAULT_SUPERSEDED_PENALTY}
 * @param minScore paths scoring below this are dropped, in [0, 1); default {@link
 *     #DEFAULT_MIN_SCORE}
 * @param damping PageRank damping (probability of following an edge rather than restarting), in (0,
 *     1); default {@link #DEFAULT_DAMPING}
 * @param maxIterations PageRank power iterations, {@code >= 1}; default {@link
 *     #DEFAULT_MAX_ITERATIONS}
 * @param beamWidth nodes expanded per hop at most (the best-scoring ones), {@code >= 1}; default
 *     {@link #DEFAULT_BEAM_WIDTH}
 * @param weights weight per relation type, each in [0, 1]; missing types take their {@link
 *     RelationType#defaultWeight()}
 */
public record ProximityConfig(
        Proximity strategy,
        int maxHops,
        double hopDecay,
        double supersededPenalty,
        double minScore,
        double damping,
        int maxIterations,
        int beamWidth,
        Map<RelationType, Double> weights) {

    /**
     * Default hop bound: entity -> document -> chunk is 2, one more entity step makes 3; farther
     * than that proximity is mostly noise and the neighbourhood grows by the mean degree per hop.
     */
    public static final int DEFAULT_MAX_HOPS = 3;

    /** Default decay per hop: a second-hand relation counts 80% of a first-hand one. */
    public static final double DEFAULT_HOP_DECAY = 0.8;

    /**
     * Default penalty on chunks of a superseded document: half its score, and never above its
     * successor's best chunk times this factor.
     */
    public static final double DEFAULT_SUPERSEDED_PENALTY = 0.5;

    /** Default score floor: paths below it are not followed. */
    public static final double DEFAULT_MIN_SCORE = 1e-4;

    /** Default PageRank damping, 0.85 as in JGraphT's {@code PageRank} and Brin and Page. */
    public static final double DEFAULT_DAMPING = 0.85;

    /** Default PageRank iteration cap; the local graph converges to 1e-6 in fewer. */
    public static final int DEFAULT_MAX_ITERATIONS = 30;

    /**
     * Default beam: at most 64 nodes are expanded per hop, the best-scoring first (ties by node).
     * Bounds the work on graphs with hub entities, whose 2-hop neighbourhood is otherwise most of
     * the graph. Measured on the synthetic 50k-entity graph ({@code GraphSignalBenchmark}): beam
     * 256 cost ~3x the CPU per query of beam 64 (p50 9 ms vs 6 ms, p95 34 ms vs 18 ms CPU on a
     * loaded 2-core box). Nodes outside the beam keep their score; they are only not expanded.
     */
    public static final int DEFAULT_BEAM_WIDTH = 64;

    /** Validates and copies. */
    public ProximityConfig {
        Objects.requireNonNull(strategy, "strategy");
        if (maxHops < 1 || maxHops > 8) {
            throw new IllegalArgumentException(
                    "illegal maxHops: " + maxHops + ", must be in [1, 8]");
        }
        if (!(hopDecay > 0.0 && hopDecay <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal hopDecay: " + hopDecay + ", must be in (0, 1]");
        }
        if (!(supersededPenalty >= 0.0 && supersededPenalty < 1.0)) {
            throw new IllegalArgumentException(
                    "illegal supersededPenalty: " + supersededPenalty + ", must be in [0, 1)");
        }
        if (!(minScore >= 0.0 && minScore < 1.0)) {
            throw new IllegalArgumentException(
                    "illegal minScore: " + minScore + ", must be in [0, 1)");
        }
        if (!(damping > 0.0 && damping < 1.0)) {
            throw new IllegalArgumentException(
                    "illegal damping: " + damping + ", must be in (0, 1)");
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException(
                    "illegal maxIterations: " + maxIterations + ", must be >= 1");
        }
        if (beamWidth < 1) {
            throw new IllegalArgumentException(
                    "illegal beamWidth: " + beamWidth + ", must be >= 1");
        }
        EnumMap<RelationType, Double> all = new EnumMap<>(RelationType.class);
        for (RelationType type : RelationType.values()) {
            all.put(type, type.defaultWeight());
        }
        weights.forEach(
                (type, w) -> {
                    if (!(w >= 0.0 && w <= 1.0)) {
                        throw new IllegalArgumentException(
                                "illegal weight of "
                                        + type.wireName()
                                        + ": "
                                        + w
                                        + ", must be in [0, 1]");
                    }
                    all.put(type, w);
                });
        weights = Map.copyOf(all);
    }

    /**
     * All defaults, {@link Proximity#WEIGHTED_EXPANSION}.
     *
     * @return the config
     */
    public static ProximityConfig defaults() {
        return new ProximityConfig(
                Proximity.WEIGHTED_EXPANSION,
                DEFAULT_MAX_HOPS,
                DEFAULT_HOP_DECAY,
                DEFAULT_SUPERSEDED_PENALTY,
                DEFAULT_MIN_SCORE,
                DEFAULT_DAMPING,
                DEFAULT_MAX_ITERATIONS,
                DEFAULT_BEAM_WIDTH,
                Map.of());
    }

    /**
     * This config with another strategy.
     *
     * @param strategy the strategy
     * @return the config
     */
    public ProximityConfig withStrategy(Proximity strategy) {
        return new ProximityConfig(
                strategy,
                maxHops,
                hopDecay,
                supersededPenalty,
                minScore,
                damping,
                maxIterations,
                beamWidth,
                weights);
    }

    /**
     * This config with another hop bound.
     *
     * @param maxHops the bound
     * @return the config
     */
    public ProximityConfig withMaxHops(int maxHops) {
        return new ProximityConfig(
                strategy,
                maxHops,
                hopDecay,
                supersededPenalty,
                minScore,
                damping,
                maxIterations,
                beamWidth,
                weights);
    }

    /**
     * This config with another beam width.
     *
     * @param beamWidth nodes expanded per hop at most
     * @return the config
     */
    public ProximityConfig withBeamWidth(int beamWidth) {
        return new ProximityConfig(
                strategy,
                maxHops,
                hopDecay,
                supersededPenalty,
                minScore,
                damping,
                maxIterations,
                beamWidth,
                weights);
    }

    /**
     * Weight of a relation type.
     *
     * @param type the type
     * @return its weight
     */
    public double weight(RelationType type) {
        return weights.get(type);
    }
}
