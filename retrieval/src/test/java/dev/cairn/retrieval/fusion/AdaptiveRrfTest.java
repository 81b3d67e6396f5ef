package dev.cairn.retrieval.fusion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdaptiveRrfTest {

    private static final SignalWeights EQUAL = SignalWeights.of(1, 1, 0);

    /** Dense prefers d2 then d1; lexical d1 then d2, with its first two scores given. */
    private static Map<Signal, List<ScoredId>> rankings(double first, double second) {
        return Map.of(
                Signal.LEXICAL,
                List.of(new ScoredId("d1", first), new ScoredId("d2", second)),
                Signal.DENSE,
                List.of(new ScoredId("d2", 0.81), new ScoredId("d1", 0.80)));
    }

    @Test
    void aDecisiveLexicalFirstPlaceGainsWeightAndWins() {
        // gap (20 - 4) / 20 = 0.8: lexical weight x 2.5 (0.8 / 0.32, at the cap)
        List<FusedCandidate> fused = Fusion.adaptiveRrf(60).fuse(rankings(20, 4), EQUAL);

        assertThat(fused).extracting(FusedCandidate::id).containsExactly("d1", "d2");
        assertThat(fused.getFirst().score()).isCloseTo(2.5 / 61 + 1.0 / 62, within(1e-12));
    }

    @Test
    void aLexicalFirstPlaceByAHairLeavesTheRankingToDense() {
        // gap (10 - 9.9) / 10 = 0.01: lexical weight x 0.25 (the floor)
        List<FusedCandidate> fused = Fusion.adaptiveRrf(60).fuse(rankings(10, 9.9), EQUAL);

        assertThat(fused).extracting(FusedCandidate::id).containsExactly("d2", "d1");
        assertThat(fused.getFirst().score()).isCloseTo(1.0 / 61 + 0.25 / 62, within(1e-12));
    }

    @Test
    void aTypicalGapIsPlainWeightedRrf() {
        Map<Signal, List<ScoredId>> typical = rankings(10, 10 * (1 - AdaptiveRrf.TYPICAL_GAP));

        assertThat(Fusion.adaptiveRrf(60).fuse(typical, EQUAL))
                .usingRecursiveFieldByFieldElementComparator()
                .isEqualTo(Fusion.weightedRrf(60).fuse(typical, EQUAL));
    }

    @Test
    void factorIsOneWithoutEvidenceAndScalesLinearlyInBetween() {
        assertThat(AdaptiveRrf.lexicalFactor(List.of())).isEqualTo(1);
        assertThat(AdaptiveRrf.lexicalFactor(List.of(new ScoredId("d1", 3)))).isEqualTo(1);
        assertThat(AdaptiveRrf.lexicalFactor(List.of(new ScoredId("d1", 0), new ScoredId("d2", 0))))
                .isEqualTo(1);
        assertThat(
                        AdaptiveRrf.lexicalFactor(
                                List.of(new ScoredId("d1", 10), new ScoredId("d2", 8.4))))
                .isCloseTo(0.16 / AdaptiveRrf.TYPICAL_GAP, within(1e-12));
    }

    @Test
    void weightsOfOtherSignalsAndAnAbsentLexicalSignalAreLeftAlone() {
        Map<Signal, List<ScoredId>> denseOnly =
                Map.of(Signal.DENSE, List.of(new ScoredId("d2", 0.8), new ScoredId("d1", 0.7)));

        assertThat(Fusion.adaptiveRrf(60).fuse(denseOnly, EQUAL))
                .usingRecursiveFieldByFieldElementComparator()
                .isEqualTo(Fusion.weightedRrf(60).fuse(denseOnly, EQUAL));
    }
}
