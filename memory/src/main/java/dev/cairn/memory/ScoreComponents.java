package dev.cairn.memory;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The parts of a recall score, each in [0, 1] except {@code typeBonus} (>= 0), before weighting.
 * See {@link RecallScorer} for how they combine.
 *
 * @param boosts how much of {@code relevance} each {@link RecallBoost} added (the rest is how well
 *     the memory matches the query); only the boosts that applied
 */
public record ScoreComponents(
        double relevance,
        double importance,
        double recency,
        double confidence,
        double typeBonus,
        Map<RecallBoost, Double> boosts) {
    public ScoreComponents {
        Memory.checkUnit("relevance", relevance);
        Memory.checkUnit("importance", importance);
        Memory.checkUnit("recency", recency);
        Memory.checkUnit("confidence", confidence);
        if (!(typeBonus >= 0.0 && typeBonus <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal typeBonus: " + typeBonus + ", must be in [0, 1]");
        }
        Objects.requireNonNull(boosts, "boosts");
        boosts = boosts.isEmpty() ? Map.of() : new EnumMap<>(boosts);
    }

    /** Components of a memory no boost lifted. */
    public ScoreComponents(
            double relevance,
            double importance,
            double recency,
            double confidence,
            double typeBonus) {
        this(relevance, importance, recency, confidence, typeBonus, Map.of());
    }
}
