package dev.cairn.memory;

import java.util.Comparator;
import java.util.Objects;

/** A memory with its recall score and the components that explain it. */
public record ScoredMemory(Memory memory, double score, ScoreComponents components) {

    /**
     * Recall order: score descending, then the more recent (recency descending, the one place
     * recency acts when it weighs nothing in the score), then id ascending.
     */
    public static final Comparator<ScoredMemory> ORDER =
            Comparator.comparingDouble(ScoredMemory::score)
                    .thenComparingDouble(s -> s.components().recency())
                    .reversed()
                    .thenComparing(s -> s.memory().id());

    public ScoredMemory {
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(components, "components");
        if (!Double.isFinite(score)) {
            throw new IllegalArgumentException("illegal score: " + score + ", must be finite");
        }
    }

    public String id() {
        return memory.id();
    }
}
