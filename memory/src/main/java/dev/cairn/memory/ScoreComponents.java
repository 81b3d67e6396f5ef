package dev.cairn.memory;

/**
 * The parts of a recall score, each in [0, 1] except {@code typeBonus} (>= 0), before weighting.
 * See {@link RecallScorer} for how they combine.
 */
public record ScoreComponents(
        double relevance, double importance, double recency, double confidence, double typeBonus) {
    public ScoreComponents {
        Memory.checkUnit("relevance", relevance);
        Memory.checkUnit("importance", importance);
        Memory.checkUnit("recency", recency);
        Memory.checkUnit("confidence", confidence);
        if (!(typeBonus >= 0.0 && typeBonus <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal typeBonus: " + typeBonus + ", must be in [0, 1]");
        }
    }
}
