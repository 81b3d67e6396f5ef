package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecallScorerTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private final MemoryLifecycle lifecycle = MemoryLifecycle.defaults();
    private final RecallScorer scorer = RecallScorer.defaults();

    private Memory memory(String id, MemoryType type, Instant at) {
        return lifecycle.create(
                id,
                NewMemory.of(Scope.of("acme"), type, "content " + id)
                        .withConfidence(0.8)
                        .withImportance(0.5),
                "",
                at);
    }

    @Test
    void recencyHalvesEveryHundredTwentyDays() {
        assertThat(scorer.recency(T0, T0)).isEqualTo(1.0);
        assertThat(scorer.recency(T0, T0.plus(Duration.ofDays(120)))).isCloseTo(0.5, offset(1e-12));
        assertThat(scorer.recency(T0, T0.plus(Duration.ofDays(240))))
                .isCloseTo(0.25, offset(1e-12));
        assertThat(scorer.recency(T0.plusSeconds(60), T0)).isEqualTo(1.0);
    }

    @Test
    void scoreIsTheWeightedSumOfItsComponentsPlusTypeBonus() {
        Memory m = memory("m1", MemoryType.PREFERENCE, T0);
        ScoredMemory s = scorer.score(m, 0.9, T0.plus(Duration.ofDays(120)));
        assertThat(s.components()).isEqualTo(new ScoreComponents(0.9, 0.5, 0.5, 0.8, 0.05));
        // recency is reported but weighs nothing by default
        assertThat(s.score()).isCloseTo(0.55 * 0.9 + 0.10 * 0.5 + 0.20 * 0.8 + 0.05, offset(1e-12));
        RecallScorer weighed =
                RecallScorer.create(RecallScorer.Weights.defaults().withRecency(0.15, 120));
        assertThat(weighed.score(m, 0.9, T0.plus(Duration.ofDays(120))).score())
                .isCloseTo(0.55 * 0.9 + 0.10 * 0.5 + 0.15 * 0.5 + 0.20 * 0.8 + 0.05, offset(1e-12));
        assertThat(scorer.score(m, 7, T0).components().relevance()).isEqualTo(1.0);
    }

    @Test
    void aMoreRelevantOldMemoryOutranksALessRelevantNewOneAsShipped() {
        // a year-long conversation asked the day after its last turn: the turn that answers was
        // said eleven months ago, a turn that matches less was said yesterday
        Instant now = T0.plus(Duration.ofDays(366));
        Memory answer = memory("answer", MemoryType.EVENT, T0.plus(Duration.ofDays(30)));
        Memory recent = memory("recent", MemoryType.EVENT, T0.plus(Duration.ofDays(365)));
        List<RecallScorer.Candidate> found =
                List.of(
                        new RecallScorer.Candidate(recent, 0.6),
                        new RecallScorer.Candidate(answer, 0.7));

        assertThat(scorer.rank(found, now))
                .extracting(ScoredMemory::id)
                .containsExactly("answer", "recent");
        // at the former weight, 0.15, recency's 0.14 of score outweighed 0.1 of relevance
        RecallScorer former =
                RecallScorer.create(RecallScorer.Weights.defaults().withRecency(0.15, 120));
        assertThat(former.rank(found, now))
                .extracting(ScoredMemory::id)
                .containsExactly("recent", "answer");
    }

    @Test
    void ofEqualScoresTheNewerComesFirst() {
        Memory older = memory("a-older", MemoryType.FACT, T0);
        Memory newer = memory("b-newer", MemoryType.FACT, T0.plus(Duration.ofDays(3)));
        List<ScoredMemory> ranked =
                scorer.rank(
                        List.of(
                                new RecallScorer.Candidate(older, 0.5),
                                new RecallScorer.Candidate(newer, 0.5)),
                        T0.plus(Duration.ofDays(10)));
        assertThat(ranked.get(0).score()).isEqualTo(ranked.get(1).score());
        assertThat(ranked).extracting(ScoredMemory::id).containsExactly("b-newer", "a-older");
    }

    @Test
    void eachBoostBooksWhatItAddedAndScalingKeepsTheSumEqualToTheRelevance() {
        Memory m = memory("m1", MemoryType.FACT, T0);
        RecallScorer.Candidate c =
                new RecallScorer.Candidate(m, 0.6)
                        .lift(RecallBoost.PERIOD, 0.6 * 1.1)
                        .lift(RecallBoost.SESSION, 0.66 + 0.2)
                        .lift(RecallBoost.SPEAKER, 0.86 * 1.5);

        assertThat(c.relevance()).isCloseTo(1.29, offset(1e-12));
        assertThat(c.boosts())
                .containsOnlyKeys(RecallBoost.PERIOD, RecallBoost.SESSION, RecallBoost.SPEAKER);
        assertThat(c.boosts().get(RecallBoost.PERIOD)).isCloseTo(0.06, offset(1e-12));
        assertThat(c.boosts().get(RecallBoost.SESSION)).isCloseTo(0.2, offset(1e-12));
        assertThat(c.boosts().get(RecallBoost.SPEAKER)).isCloseTo(0.43, offset(1e-12));

        ScoreComponents scaled = scorer.score(c, 1.29, T0).components();
        double boosted = scaled.boosts().values().stream().mapToDouble(Double::doubleValue).sum();
        assertThat(scaled.relevance()).isCloseTo(1.0, offset(1e-12));
        assertThat(scaled.relevance() - boosted)
                .as("what is left is the match, scaled the same way")
                .isCloseTo(0.6 / 1.29, offset(1e-12));
        assertThat(scorer.score(m, 0.6, T0).components().boosts()).isEmpty();
    }

    @Test
    void zeroWeightDropsASignal() {
        RecallScorer relevanceOnly =
                RecallScorer.create(new RecallScorer.Weights(1, 0, 0, 0, 120, Map.of()));
        Memory old = memory("m1", MemoryType.FACT, T0.minus(Duration.ofDays(900)));
        assertThat(relevanceOnly.score(old, 0.3, T0).score()).isCloseTo(0.3, offset(1e-12));
    }

    @Test
    void ranksByScoreThenRecencyThenIdForDeterministicTies() {
        Memory b = memory("b", MemoryType.FACT, T0);
        Memory a = memory("a", MemoryType.FACT, T0);
        Memory c = memory("c", MemoryType.FACT, T0);
        List<ScoredMemory> ranked =
                scorer.rank(
                        List.of(
                                new RecallScorer.Candidate(b, 0.5),
                                new RecallScorer.Candidate(c, 0.9),
                                new RecallScorer.Candidate(a, 0.5)),
                        T0);
        assertThat(ranked).extracting(ScoredMemory::id).containsExactly("c", "a", "b");
    }

    @Test
    void weightsAreValidatedNamingTheBadValue() {
        assertThatThrownBy(() -> new RecallScorer.Weights(-1, 0, 0, 0, 120, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("illegal relevance weight: -1.0, must be >= 0");
        assertThatThrownBy(() -> new RecallScorer.Weights(1, 0, 0, 0, 0, Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("halfLifeDays");
    }
}
