package dev.cairn.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FusionTest {

    private static final long SEED = 20091019L;
    private static final int TRIALS = 200;

    static Stream<Fusion> fusions() {
        return Stream.of(
                Fusion.weightedRrf(),
                Fusion.weightedRrf(1),
                Fusion.convex(Normalization.MIN_MAX),
                Fusion.convex(Normalization.THEORETICAL_MIN_MAX),
                Fusion.convex(Normalization.MAX_SCALED));
    }

    @Test
    void maxScaledKeepsCosineAndDividesBm25ByItsBest() {
        Map<Signal, List<ScoredId>> in = new EnumMap<>(Signal.class);
        in.put(Signal.LEXICAL, List.of(new ScoredId("a", 8), new ScoredId("b", 2)));
        in.put(
                Signal.DENSE,
                List.of(new ScoredId("b", 0.7), new ScoredId("c", 0.4), new ScoredId("d", -0.2)));

        List<FusedCandidate> out =
                Fusion.convex(Normalization.MAX_SCALED).fuse(in, SignalWeights.of(0.1, 0.9, 0));

        // exactly memory recall's relevance: (w_d * max(0, cos) + w_l * bm25 / max bm25) / sum w
        Map<String, Double> byId = new LinkedHashMap<>();
        out.forEach(c -> byId.put(c.id(), c.score()));
        assertThat(byId)
                .containsEntry("a", (0.9 * 0.0 + 0.1 * (8 / 8.0)) / (0.9 + 0.1))
                .containsEntry("b", (0.9 * 0.7 + 0.1 * (2 / 8.0)) / (0.9 + 0.1))
                .containsEntry("c", (0.9 * 0.4 + 0.1 * 0.0) / (0.9 + 0.1))
                .containsEntry("d", 0.0);
        assertThat(out).extracting(FusedCandidate::id).containsExactly("b", "c", "a", "d");
        assertThat(out.get(3).score(Signal.DENSE)).hasValue(-0.2);
    }

    @Test
    void aSignalThatAnsweredNothingStillCountsInTheWeightSum() {
        Map<Signal, List<ScoredId>> answered = new EnumMap<>(Signal.class);
        answered.put(Signal.LEXICAL, List.of());
        answered.put(Signal.DENSE, List.of(new ScoredId("a", 0.5)));
        Map<Signal, List<ScoredId>> notAsked = new EnumMap<>(Signal.class);
        notAsked.put(Signal.DENSE, List.of(new ScoredId("a", 0.5)));
        Fusion convex = Fusion.convex(Normalization.MAX_SCALED);
        SignalWeights weights = SignalWeights.of(1, 3, 0);

        assertThat(convex.fuse(answered, weights).getFirst().score()).isEqualTo(3 * 0.5 / 4);
        assertThat(convex.fuse(notAsked, weights).getFirst().score()).isEqualTo(0.5);
    }

    @Test
    void rrfScoresAreWeightedReciprocalRanks() {
        Map<Signal, List<ScoredId>> in = new EnumMap<>(Signal.class);
        in.put(Signal.LEXICAL, List.of(new ScoredId("a", 9), new ScoredId("b", 5)));
        in.put(Signal.DENSE, List.of(new ScoredId("b", 0.9), new ScoredId("c", 0.8)));

        List<FusedCandidate> out = Fusion.weightedRrf(60).fuse(in, SignalWeights.of(1, 2, 0));

        assertThat(out).extracting(FusedCandidate::id).containsExactly("b", "c", "a");
        assertThat(out.get(0).score()).isCloseTo(1.0 / 62 + 2.0 / 61, within(1e-12));
        assertThat(out.get(1).score()).isCloseTo(2.0 / 62, within(1e-12));
        assertThat(out.get(2).score()).isCloseTo(1.0 / 61, within(1e-12));
        FusedCandidate b = out.get(0);
        assertThat(b.rank(Signal.LEXICAL)).hasValue(2);
        assertThat(b.rank(Signal.DENSE)).hasValue(1);
        assertThat(b.score(Signal.DENSE)).hasValue(0.9);
        assertThat(out.get(2).rank(Signal.DENSE)).isEmpty();
        assertThat(out.get(2).score(Signal.DENSE)).isEmpty();
        assertThat(b.rank(Signal.GRAPH)).isEmpty();
    }

    @Test
    void equalScoresShareTheBetterRankSoListOrderCannotDecide() {
        Map<Signal, List<ScoredId>> in = new EnumMap<>(Signal.class);
        in.put(
                Signal.GRAPH,
                List.of(
                        new ScoredId("a", 0.64),
                        new ScoredId("b", 0.64),
                        new ScoredId("c", 0.64),
                        new ScoredId("d", 0.5)));

        List<FusedCandidate> out = Fusion.weightedRrf(60).fuse(in, SignalWeights.of(0, 0, 1));

        assertThat(out)
                .extracting(c -> c.rank(Signal.GRAPH).orElseThrow())
                .containsExactly(1, 1, 1, 4);
        assertThat(out.get(2).score()).isEqualTo(out.get(0).score());
        assertThat(out.get(3).score()).isCloseTo(1.0 / 64, within(1e-12));
    }

    @Test
    void convexMinMaxCombinesNormalisedScores() {
        Map<Signal, List<ScoredId>> in = new EnumMap<>(Signal.class);
        in.put(
                Signal.LEXICAL,
                List.of(new ScoredId("a", 10), new ScoredId("b", 6), new ScoredId("c", 2)));
        in.put(Signal.DENSE, List.of(new ScoredId("c", 0.8), new ScoredId("b", 0.4)));

        List<FusedCandidate> out =
                Fusion.convex(Normalization.MIN_MAX).fuse(in, SignalWeights.of(1, 3, 0));

        // lexical: a 1, b 0.5, c 0; dense: c 1, b 0; fused = (1*lex + 3*dense) / 4
        assertThat(out).extracting(FusedCandidate::id).containsExactly("c", "a", "b");
        assertThat(out.get(0).score()).isCloseTo(0.75, within(1e-12));
        assertThat(out.get(1).score()).isCloseTo(0.25, within(1e-12));
        assertThat(out.get(2).score()).isCloseTo(0.125, within(1e-12));
    }

    @Test
    void theoreticalMinMaxUsesTheSignalsLowestPossibleScore() {
        Map<Signal, List<ScoredId>> in =
                Map.of(Signal.DENSE, List.of(new ScoredId("a", 0.5), new ScoredId("b", 0.0)));

        List<FusedCandidate> out = Fusion.convex().fuse(in, SignalWeights.DEFAULTS);

        // cosine lower bound -1: a -> 1, b -> (0 + 1) / (0.5 + 1)
        assertThat(out.get(0).score()).isCloseTo(1.0, within(1e-12));
        assertThat(out.get(1).score()).isCloseTo(2.0 / 3, within(1e-12));
    }

    @Test
    void tiesBreakByIdAscending() {
        Map<Signal, List<ScoredId>> in = new EnumMap<>(Signal.class);
        in.put(Signal.LEXICAL, List.of(new ScoredId("z", 1)));
        in.put(Signal.DENSE, List.of(new ScoredId("m", 1)));
        in.put(Signal.GRAPH, List.of(new ScoredId("a", 1)));

        List<FusedCandidate> out = Fusion.weightedRrf().fuse(in, SignalWeights.of(1, 1, 1));

        assertThat(out).extracting(FusedCandidate::id).containsExactly("a", "m", "z");
    }

    @Test
    void rejectsARankingThatRepeatsAnId() {
        Map<Signal, List<ScoredId>> in =
                Map.of(Signal.LEXICAL, List.of(new ScoredId("a", 2), new ScoredId("a", 1)));

        assertThatThrownBy(() -> Fusion.weightedRrf().fuse(in, SignalWeights.DEFAULTS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'a' appears twice");
    }

    @Test
    void rejectsBadSettings() {
        assertThatThrownBy(() -> Fusion.weightedRrf(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("illegal k: 0, must be >= 1");
        assertThatThrownBy(() -> SignalWeights.of(1, -0.5, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("illegal weight: -0.5 for DENSE");
    }

    @ParameterizedTest
    @MethodSource("fusions")
    void orderOfSignalsDoesNotMatter(Fusion fusion) {
        Random random = new Random(SEED);
        for (int trial = 0; trial < TRIALS; trial++) {
            Map<Signal, List<ScoredId>> in = randomRankings(random);
            SignalWeights w = randomWeights(random);
            List<Signal> reversed = new ArrayList<>(in.keySet());
            Collections.reverse(reversed);
            Map<Signal, List<ScoredId>> other = new LinkedHashMap<>();
            reversed.forEach(s -> other.put(s, in.get(s)));

            assertThat(fusion.fuse(other, w))
                    .as("seed %d trial %d", SEED, trial)
                    .isEqualTo(fusion.fuse(in, w));
        }
    }

    @ParameterizedTest
    @MethodSource("fusions")
    void zeroWeightIsTheSameAsAnAbsentSignal(Fusion fusion) {
        Random random = new Random(SEED + 1);
        for (int trial = 0; trial < TRIALS; trial++) {
            Map<Signal, List<ScoredId>> in = randomRankings(random);
            Signal dropped = Signal.values()[random.nextInt(Signal.values().length)];
            EnumMap<Signal, Double> weights = new EnumMap<>(randomWeights(random).weights());
            weights.put(dropped, 0.0);
            Map<Signal, List<ScoredId>> without = new EnumMap<>(Signal.class);
            without.putAll(in);
            without.remove(dropped);

            List<FusedCandidate> out = fusion.fuse(in, new SignalWeights(weights));

            assertThat(out)
                    .as("seed %d trial %d", SEED + 1, trial)
                    .isEqualTo(fusion.fuse(without, new SignalWeights(weights)));
            assertThat(out).allSatisfy(c -> assertThat(c.rank(dropped)).isEmpty());
        }
    }

    @ParameterizedTest
    @MethodSource("fusions")
    void scalingAllWeightsKeepsTheOrder(Fusion fusion) {
        Random random = new Random(SEED + 2);
        for (int trial = 0; trial < TRIALS; trial++) {
            Map<Signal, List<ScoredId>> in = randomRankings(random);
            SignalWeights w = randomWeights(random);
            double factor = 0.1 + random.nextDouble() * 10;

            assertThat(ids(fusion.fuse(in, w.scaled(factor))))
                    .as("seed %d trial %d factor %s", SEED + 2, trial, factor)
                    .isEqualTo(ids(fusion.fuse(in, w)));
        }
    }

    @ParameterizedTest
    @MethodSource("fusions")
    void aSingleSignalKeepsItsOwnOrder(Fusion fusion) {
        Random random = new Random(SEED + 3);
        for (int trial = 0; trial < TRIALS; trial++) {
            Signal only = Signal.values()[random.nextInt(Signal.values().length)];
            List<ScoredId> ranking = randomRanking(random, only);
            SignalWeights w = randomWeights(random).scaled(1); // copy
            EnumMap<Signal, Double> weights = new EnumMap<>(w.weights());
            weights.put(only, 0.5 + random.nextDouble());

            List<FusedCandidate> out =
                    fusion.fuse(Map.of(only, ranking), new SignalWeights(weights));

            assertThat(ids(out))
                    .as("seed %d trial %d", SEED + 3, trial)
                    .isEqualTo(ranking.stream().map(ScoredId::id).toList());
        }
    }

    private static List<String> ids(List<FusedCandidate> candidates) {
        return candidates.stream().map(FusedCandidate::id).toList();
    }

    private static Map<Signal, List<ScoredId>> randomRankings(Random random) {
        Map<Signal, List<ScoredId>> in = new LinkedHashMap<>();
        for (Signal s : Signal.values()) {
            if (random.nextInt(4) > 0) {
                in.put(s, randomRanking(random, s));
            }
        }
        return in;
    }

    /** Distinct ids from a pool of 30, scores strictly decreasing in the signal's range. */
    private static List<ScoredId> randomRanking(Random random, Signal signal) {
        List<String> pool = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            pool.add("d" + i);
        }
        Collections.shuffle(pool, random);
        int n = 1 + random.nextInt(pool.size());
        double score = signal == Signal.DENSE ? 1.0 : 5 + random.nextDouble() * 20;
        List<ScoredId> ranking = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ranking.add(new ScoredId(pool.get(i), score));
            score -= (signal == Signal.DENSE ? 0.02 : 0.3) * (0.01 + random.nextDouble());
        }
        return ranking;
    }

    private static SignalWeights randomWeights(Random random) {
        return SignalWeights.of(
                0.1 + random.nextDouble(), 0.1 + random.nextDouble(), 0.1 + random.nextDouble());
    }
}
