package dev.cairn.memory;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Recall scoring, a pure function of a memory, its relevance to the query and the time:
 *
 * <pre>
 * score   = wRel * relevance + wImp * importance + wRec * recency + wConf * confidence
 *         + typeBonus(type)
 * recency = 0.5 ^ (ageDays / halfLifeDays),  ageDays = max(0, now - updatedAt) in days
 * </pre>
 *
 * Relevance is the caller's similarity in [0, 1] (clamped), e.g. fused hybrid score or cosine. Age
 * counts from {@code updatedAt} because reinforcement re-confirms a memory. Exponential decay with
 * a half-life is the forgetting-curve form used by generative-agents memory streams (Park et al.,
 * 2023, "Generative Agents", recency as exponential decay). By default recency weighs nothing and
 * only orders memories of equal score (newer first, then by id): asked the day after a
 * conversation's last turn, as an agent asks, its former weight of 0.15 cost 0.03-0.23 evidence
 * recall@10 on every kind of conversation measured and helped no question category (docs/memory.md,
 * "Asked the day after"). A deployment whose memories go stale can weigh it again ({@code
 * recall.recency-weight}). Immutable, thread-safe.
 */
public final class RecallScorer {

    /** Half-life of recency decay in days. */
    public static final double DEFAULT_HALF_LIFE_DAYS = 120.0;

    public static final double DEFAULT_RELEVANCE_WEIGHT = 0.55;
    public static final double DEFAULT_IMPORTANCE_WEIGHT = 0.10;

    /**
     * 0: recency orders memories of equal score but does not outweigh relevance (see the class
     * comment).
     */
    public static final double DEFAULT_RECENCY_WEIGHT = 0.0;

    public static final double DEFAULT_CONFIDENCE_WEIGHT = 0.20;

    /**
     * Weights, half-life and per-type bonus (absent types get 0). Weights >= 0 with a positive sum;
     * bonuses in [0, 1]; half-life > 0.
     */
    public record Weights(
            double relevance,
            double importance,
            double recency,
            double confidence,
            double halfLifeDays,
            Map<MemoryType, Double> typeBonus) {
        public Weights {
            nonNegative("relevance", relevance);
            nonNegative("importance", importance);
            nonNegative("recency", recency);
            nonNegative("confidence", confidence);
            if (relevance + importance + recency + confidence <= 0) {
                throw new IllegalArgumentException(
                        "illegal weights: all zero, must have a positive sum");
            }
            if (!(halfLifeDays > 0) || !Double.isFinite(halfLifeDays)) {
                throw new IllegalArgumentException(
                        "illegal halfLifeDays: " + halfLifeDays + ", must be > 0");
            }
            Map<MemoryType, Double> copy = new EnumMap<>(MemoryType.class);
            typeBonus.forEach(
                    (type, bonus) -> {
                        Objects.requireNonNull(type, "type");
                        if (!(bonus >= 0.0 && bonus <= 1.0)) {
                            throw new IllegalArgumentException(
                                    "illegal typeBonus for "
                                            + type
                                            + ": "
                                            + bonus
                                            + ", must be in [0, 1]");
                        }
                        copy.put(type, bonus);
                    });
            typeBonus = Map.copyOf(copy);
        }

        /**
         * Defaults: relevance 0.55, importance 0.10, recency 0 (it orders equal scores only),
         * confidence 0.20, half-life 120 days; bonus PREFERENCE and PROCEDURE 0.05, DECISION 0.04,
         * PROBLEM 0.03, FACT and TASK 0.02 (what changes how an agent acts ranks a little higher).
         */
        public static Weights defaults() {
            return new Weights(
                    DEFAULT_RELEVANCE_WEIGHT,
                    DEFAULT_IMPORTANCE_WEIGHT,
                    DEFAULT_RECENCY_WEIGHT,
                    DEFAULT_CONFIDENCE_WEIGHT,
                    DEFAULT_HALF_LIFE_DAYS,
                    Map.of(
                            MemoryType.PREFERENCE, 0.05,
                            MemoryType.PROCEDURE, 0.05,
                            MemoryType.DECISION, 0.04,
                            MemoryType.PROBLEM, 0.03,
                            MemoryType.FACT, 0.02,
                            MemoryType.TASK, 0.02));
        }

        /**
         * These weights with recency weighed {@code weight}, halving every {@code halfLife} days.
         */
        public Weights withRecency(double weight, double halfLife) {
            return new Weights(relevance, importance, weight, confidence, halfLife, typeBonus);
        }

        public double bonus(MemoryType type) {
            return typeBonus.getOrDefault(type, 0.0);
        }

        private static void nonNegative(String name, double w) {
            if (!(w >= 0.0) || !Double.isFinite(w)) {
                throw new IllegalArgumentException(
                        "illegal " + name + " weight: " + w + ", must be >= 0");
            }
        }
    }

    /**
     * A memory and its relevance to the query, as the candidate search found it and the boosts
     * lifted it, with how much each boost added.
     */
    public record Candidate(Memory memory, double relevance, Map<RecallBoost, Double> boosts) {
        public Candidate {
            Objects.requireNonNull(memory, "memory");
            if (Double.isNaN(relevance)) {
                throw new IllegalArgumentException("illegal relevance: NaN, must be a number");
            }
            Objects.requireNonNull(boosts, "boosts");
        }

        /** A candidate as the search found it, before any boost. */
        public Candidate(Memory memory, double relevance) {
            this(memory, relevance, Map.of());
        }

        /** This candidate at {@code lifted} relevance, the difference booked to {@code boost}. */
        public Candidate lift(RecallBoost boost, double lifted) {
            Map<RecallBoost, Double> added = new EnumMap<>(RecallBoost.class);
            added.putAll(boosts);
            added.merge(boost, lifted - relevance, Double::sum);
            return new Candidate(memory, lifted, added);
        }

        /** This candidate with its relevance and every boost's share divided by {@code scale}. */
        Candidate scaled(double scale) {
            if (scale == 1.0) {
                return this;
            }
            Map<RecallBoost, Double> added = new EnumMap<>(RecallBoost.class);
            boosts.forEach((b, v) -> added.put(b, v / scale));
            return new Candidate(memory, relevance / scale, added);
        }
    }

    private static final double DAY_SECONDS = Duration.ofDays(1).toSeconds();

    private final Weights weights;

    private RecallScorer(Weights weights) {
        this.weights = Objects.requireNonNull(weights, "weights");
    }

    public static RecallScorer create(Weights weights) {
        return new RecallScorer(weights);
    }

    public static RecallScorer defaults() {
        return new RecallScorer(Weights.defaults());
    }

    public Weights weights() {
        return weights;
    }

    /** Recency factor {@code 0.5^(ageDays / halfLifeDays)}, 1 for future timestamps. */
    public double recency(Instant updatedAt, Instant now) {
        double ageDays = Math.max(0, Duration.between(updatedAt, now).toSeconds()) / DAY_SECONDS;
        return Math.pow(0.5, ageDays / weights.halfLifeDays());
    }

    /** Scores one memory; {@code relevance} is clamped to [0, 1]. */
    public ScoredMemory score(Memory memory, double relevance, Instant now) {
        return score(new Candidate(memory, relevance), now);
    }

    /**
     * Scores one candidate, its relevance and boosts divided by {@code scale} (>= 1) first: recall
     * scales every candidate by the largest relevance so boosted ones past 1 keep their order.
     */
    public ScoredMemory score(Candidate candidate, double scale, Instant now) {
        return score(candidate.scaled(scale), now);
    }

    private ScoredMemory score(Candidate candidate, Instant now) {
        Memory memory = candidate.memory();
        ScoreComponents c =
                new ScoreComponents(
                        Math.max(0.0, Math.min(1.0, candidate.relevance())),
                        memory.importance(),
                        recency(memory.updatedAt(), now),
                        memory.confidence(),
                        weights.bonus(memory.type()),
                        candidate.boosts());
        double score =
                weights.relevance() * c.relevance()
                        + weights.importance() * c.importance()
                        + weights.recency() * c.recency()
                        + weights.confidence() * c.confidence()
                        + c.typeBonus();
        return new ScoredMemory(memory, score, c);
    }

    /** Scores and sorts ({@link ScoredMemory#ORDER}). */
    public List<ScoredMemory> rank(Collection<Candidate> candidates, Instant now) {
        return candidates.stream().map(c -> score(c, now)).sorted(ScoredMemory.ORDER).toList();
    }
}
