package dev.cairn.retrieval.feedback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.retrieval.fusion.FusedCandidate;
import dev.cairn.retrieval.fusion.Signal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LearnedFusionTest {

    /** A candidate both signals returned, scored as the default fusion would (1/61-style). */
    private static FusedCandidate both(
            String id, int lexicalRank, double bm25, int denseRank, double cosine) {
        Map<Signal, Integer> ranks = new EnumMap<>(Signal.class);
        Map<Signal, Double> scores = new EnumMap<>(Signal.class);
        ranks.put(Signal.LEXICAL, lexicalRank);
        scores.put(Signal.LEXICAL, bm25);
        ranks.put(Signal.DENSE, denseRank);
        scores.put(Signal.DENSE, cosine);
        return new FusedCandidate(
                id, 1.0 / (60 + lexicalRank) + 1.0 / (60 + denseRank), ranks, scores);
    }

    @Test
    void theFeaturesAreTheAdaptiveRankTermsTheCosineItsGapAndTheBm25Share() {
        Map<Signal, Integer> lexicalOnlyRanks = new EnumMap<>(Map.of(Signal.LEXICAL, 2));
        Map<Signal, Double> lexicalOnlyScores = new EnumMap<>(Map.of(Signal.LEXICAL, 6.0));
        List<FusedCandidate> fused =
                List.of(
                        both("a", 1, 8.0, 1, 0.80),
                        both("b", 3, 2.0, 2, 0.70),
                        new FusedCandidate("c", 1.0 / 62, lexicalOnlyRanks, lexicalOnlyScores));

        double[][] x = LearnedFusion.features(fused);

        // BM25's first-to-second gap (8 - 6) / 8 = 0.25, over the typical 0.32
        double factor = 0.25 / 0.32;
        assertThat(x[0])
                .containsExactly(
                        new double[] {factor * 60 / 61, 60.0 / 61, 0.80, 0, 1}, within(1e-12));
        assertThat(x[1])
                .containsExactly(
                        new double[] {factor * 60 / 63, 60.0 / 62, 0.70, -0.10, 0.25},
                        within(1e-12));
        // no dense score: the lowest returned cosine less the gap, and no dense term
        assertThat(x[2])
                .containsExactly(
                        new double[] {factor * 60 / 62, 0, 0.68, -0.12, 0.75}, within(1e-12));
    }

    @Test
    void aTieAtBm25sFirstPlaceIsNoGapAndARankingWithoutBm25HasNoLexicalTerms() {
        // ties share a rank: two at rank 1, the next at 3; the gap between the two best is 0, so
        // the adaptive fusion's factor is its floor, 0.25
        List<FusedCandidate> tied =
                List.of(
                        both("a", 1, 5.0, 1, 0.9),
                        both("b", 1, 5.0, 2, 0.8),
                        both("c", 3, 2.5, 3, 0.7));
        double[][] x = LearnedFusion.features(tied);
        assertThat(x[0][0]).isCloseTo(0.25 * 60 / 61, within(1e-12));
        assertThat(x[2][0]).isCloseTo(0.25 * 60 / 63, within(1e-12));
        assertThat(x[2][4]).isCloseTo(0.5, within(1e-12));

        Map<Signal, Integer> ranks = new EnumMap<>(Map.of(Signal.DENSE, 1));
        Map<Signal, Double> scores = new EnumMap<>(Map.of(Signal.DENSE, 0.6));
        double[][] denseOnly =
                LearnedFusion.features(List.of(new FusedCandidate("d", 1.0 / 61, ranks, scores)));
        assertThat(denseOnly[0])
                .containsExactly(new double[] {0, 60.0 / 61, 0.6, 0, 0}, within(1e-12));
    }

    @Test
    void trainingOnQueriesWhoseAnswersTheCosineTellsBetterThanTheRanksLearnsToTrustIt() {
        // in every query the relevant candidate has the best cosine by far and BM25's last place
        Random random = new Random(7);
        List<LearnedFusion.Example> train = queries(40, random);

        LearnedFusion learned = LearnedFusion.train(train);

        assertThat(learned.active()).isTrue();
        assertThat(learned.weights()[2] + learned.weights()[3]).isPositive();
        int firstUnder = 0;
        int firstDefault = 0;
        for (int q = 0; q < 20; q++) {
            LearnedFusion.Example unseen = query("unseen" + q, random);
            Set<String> relevant = unseen.relevantIds();
            if (relevant.contains(learned.apply(unseen.candidates()).getFirst().id())) {
                firstUnder++;
            }
            if (relevant.contains(unseen.candidates().getFirst().id())) {
                firstDefault++;
            }
        }
        assertThat(firstDefault).isZero();
        assertThat(firstUnder).isEqualTo(20);
    }

    @Test
    void newtonsMethodReachesTheMinimumOfTheRegularisedPairwiseLoss() {
        Random random = new Random(17);
        double[][] pairs = new double[400][3];
        for (double[] z : pairs) {
            z[0] = random.nextGaussian() + 0.8; // mostly for the relevant side
            z[1] = random.nextGaussian() - 0.2;
            z[2] = random.nextGaussian();
        }

        double[] w = LearnedFusion.minimise(pairs, 3);

        // the gradient of the mean loss plus the pull, written out apart from the fit: zero
        double[] gradient = new double[3];
        for (double[] z : pairs) {
            double margin = w[0] * z[0] + w[1] * z[1] + w[2] * z[2];
            double miss = 1 / (1 + Math.exp(margin));
            for (int j = 0; j < 3; j++) {
                gradient[j] -= miss * z[j] / pairs.length;
            }
        }
        for (int j = 0; j < 3; j++) {
            assertThat(gradient[j] + LearnedFusion.REGULARIZATION * w[j])
                    .isCloseTo(0, within(1e-9));
        }
        double at = LearnedFusion.loss(pairs, w);
        for (int j = 0; j < 3; j++) {
            for (double nudge : new double[] {-1e-4, 1e-4}) {
                double[] moved = w.clone();
                moved[j] += nudge;
                assertThat(LearnedFusion.loss(pairs, moved)).isGreaterThan(at);
            }
        }
        assertThat(w[0]).isPositive();
    }

    @Test
    void moreQueriesThanItsPairsAllowTrainOnASeededSampleOfAllThePairs() {
        // seven pairs a query: 10,200 queries give 71,400, above the cap. The first 7,200 (50,400
        // pairs, so the first 50,000 pairs are all theirs) are
        // answered by the best cosine and BM25's last place; the last 3,000 by BM25's first place
        // and a middling cosine. Were only the first 50,000 pairs kept, the last queries would
        // teach nothing and BM25's share would count against a candidate
        Random random = new Random(3);
        List<LearnedFusion.Example> many = new ArrayList<>(queries(7200, random));
        for (int q = 0; q < 3000; q++) {
            many.add(lexicalAnswer("late" + q, random));
        }
        assertThat(many.size() * 7).isGreaterThan(LearnedFusion.MAX_PAIRS);

        LearnedFusion learned = LearnedFusion.train(many);
        LearnedFusion earlyOnly = LearnedFusion.train(many.subList(0, 7200));

        assertThat(LearnedFusion.train(many)).isEqualTo(learned); // seeded
        assertThat(earlyOnly.weights()[4]).isNegative();
        assertThat(learned.weights()[4]).isPositive();
        LearnedFusion.Example late = lexicalAnswer("unseen", new Random(5));
        assertThat(late.relevantIds()).contains(learned.apply(late.candidates()).getFirst().id());
    }

    /**
     * Eight candidates of one query whose relevant one is BM25's first by far (its score twice the
     * second's) with a cosine among the others', in default-fusion order.
     */
    private static LearnedFusion.Example lexicalAnswer(String q, Random random) {
        List<FusedCandidate> fused = new ArrayList<>();
        double[] cosines = new double[9];
        for (int lexicalRank = 1; lexicalRank <= 8; lexicalRank++) {
            cosines[lexicalRank] = 0.65 + random.nextDouble() * 0.05;
        }
        for (int lexicalRank = 1; lexicalRank <= 8; lexicalRank++) {
            int denseRank = 1;
            for (int other = 1; other <= 8; other++) {
                if (cosines[other] > cosines[lexicalRank]) {
                    denseRank++;
                }
            }
            double bm25 = lexicalRank == 1 ? 20 : 10.0 / lexicalRank;
            fused.add(
                    both(
                            q + "-" + lexicalRank,
                            lexicalRank,
                            bm25,
                            denseRank,
                            cosines[lexicalRank]));
        }
        fused.sort(
                java.util.Comparator.comparingDouble((FusedCandidate c) -> c.score()).reversed());
        return new LearnedFusion.Example(fused, Set.of(q + "-1"));
    }

    @Test
    void itsScoresSpreadAsTheDefaultFusionsDoOverTheTrainingCandidates() {
        List<LearnedFusion.Example> train = queries(30, new Random(11));
        LearnedFusion learned = LearnedFusion.train(train);

        List<Double> before = new ArrayList<>();
        List<Double> after = new ArrayList<>();
        for (LearnedFusion.Example e : train) {
            e.candidates().forEach(c -> before.add(c.score()));
            learned.apply(e.candidates()).forEach(c -> after.add(c.score()));
        }
        assertThat(deviation(after)).isCloseTo(deviation(before), within(1e-9));
    }

    @Test
    void noneAGraphContributionOrNothingToPairLeavesTheDefaultFusion() {
        List<FusedCandidate> fused = List.of(both("a", 1, 5, 2, 0.5), both("b", 2, 4, 1, 0.9));
        assertThat(LearnedFusion.NONE.apply(fused)).isSameAs(fused);
        assertThat(LearnedFusion.NONE.active()).isFalse();

        LearnedFusion byCosine = new LearnedFusion(new double[] {0, 0, 1, 0, 0});
        assertThat(byCosine.apply(fused)).extracting(FusedCandidate::id).containsExactly("b", "a");
        Map<Signal, Integer> ranks = new EnumMap<>(Map.of(Signal.GRAPH, 1));
        Map<Signal, Double> scores = new EnumMap<>(Map.of(Signal.GRAPH, 0.3));
        List<FusedCandidate> withGraph = new ArrayList<>(fused);
        withGraph.add(new FusedCandidate("g", 1.0 / 61, ranks, scores));
        assertThat(byCosine.apply(withGraph)).isSameAs(withGraph);

        // no query with a relevant candidate among others: nothing to learn from
        assertThat(LearnedFusion.train(List.of(new LearnedFusion.Example(fused, Set.of("a", "b")))))
                .isEqualTo(LearnedFusion.NONE);
    }

    @Test
    void weightsMustBeOnePerFeatureAndFinite() {
        assertThatThrownBy(() -> new LearnedFusion(new double[] {1, 2}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "illegal weights: 2 of them, must be 0 or 5 (lexical-rank, dense-rank,"
                                + " cosine, cosine-gap, bm25-share)");
        assertThatThrownBy(() -> new LearnedFusion(new double[] {0, 0, Double.NaN, 0, 0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("illegal weight: NaN, must be finite");
        double[] given = {1, 2, 3, 4, 5};
        LearnedFusion fusion = new LearnedFusion(given);
        given[0] = 9;
        assertThat(fusion.weights()[0]).isEqualTo(1); // copied in and out
        assertThat(fusion.describe())
                .isEqualTo(
                        "lexical-rank 1.000, dense-rank 2.000, cosine 3.000, cosine-gap 4.000,"
                                + " bm25-share 5.000");
    }

    private static List<LearnedFusion.Example> queries(int count, Random random) {
        List<LearnedFusion.Example> examples = new ArrayList<>();
        for (int q = 0; q < count; q++) {
            examples.add(query("q" + q, random));
        }
        return examples;
    }

    /**
     * Eight candidates of one query in default-fusion order: BM25 ranks them 1 to 8; the relevant
     * one is BM25's last but has the best cosine by 0.15 (the others' lie within 0.05 of each
     * other), so the dense signal ranks it first, and the default fusion puts it below the
     * candidates both signals rank high.
     */
    private static LearnedFusion.Example query(String q, Random random) {
        double[] cosines = new double[9];
        for (int lexicalRank = 1; lexicalRank <= 8; lexicalRank++) {
            cosines[lexicalRank] = lexicalRank == 8 ? 0.85 : 0.65 + random.nextDouble() * 0.05;
        }
        List<FusedCandidate> fused = new ArrayList<>();
        for (int lexicalRank = 1; lexicalRank <= 8; lexicalRank++) {
            int denseRank = 1;
            for (int other = 1; other <= 8; other++) {
                if (cosines[other] > cosines[lexicalRank]) {
                    denseRank++;
                }
            }
            fused.add(
                    both(
                            q + "-" + lexicalRank,
                            lexicalRank,
                            10.0 / lexicalRank,
                            denseRank,
                            cosines[lexicalRank]));
        }
        fused.sort(
                java.util.Comparator.comparingDouble((FusedCandidate c) -> c.score()).reversed());
        return new LearnedFusion.Example(fused, Set.of(q + "-8"));
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    private static double deviation(List<Double> values) {
        double mean = mean(values);
        double sum = 0;
        for (double v : values) {
            sum += (v - mean) * (v - mean);
        }
        return Math.sqrt(sum / values.size());
    }
}
