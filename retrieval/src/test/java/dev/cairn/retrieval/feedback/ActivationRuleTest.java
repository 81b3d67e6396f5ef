package dev.cairn.retrieval.feedback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The activation rule and the held-back scores it reads. */
class ActivationRuleTest {

    @Test
    void heldBackScoreHasTheMeansAndTheStandardErrorOfThePairedDifference() {
        // differences 0.1, 0.3, 0.2, 0.0: mean 0.15, sample sd 0.1291, over sqrt(4)
        HeldBackScore s =
                HeldBackScore.of(
                        new double[] {0.5, 0.4, 0.6, 1.0}, new double[] {0.6, 0.7, 0.8, 1.0});

        assertThat(s.queries()).isEqualTo(4);
        assertThat(s.baselineNdcg10()).isCloseTo(0.625, within(1e-12));
        assertThat(s.adaptedNdcg10()).isCloseTo(0.775, within(1e-12));
        assertThat(s.gain()).isCloseTo(0.15, within(1e-12));
        assertThat(s.standardError()).isCloseTo(Math.sqrt(0.05 / 3) / 2, within(1e-12));
        assertThat(HeldBackScore.of(new double[] {0.3}, new double[] {0.9}).standardError())
                .isZero();
        assertThat(HeldBackScore.of(new double[0], new double[0])).isEqualTo(HeldBackScore.NONE);
        assertThatThrownBy(() -> HeldBackScore.of(new double[1], new double[2]))
                .hasMessage("illegal pairs: 1 baseline, 2 adapted values, must be as many");
    }

    @Test
    void theNoiseBandIsOneStandardErrorCappedAtMaxNoiseBand() {
        assertThat(ActivationRule.noiseBand(new HeldBackScore(80, 0.7, 0.7, 0.004)))
                .isEqualTo(0.004);
        assertThat(ActivationRule.noiseBand(new HeldBackScore(20, 0.7, 0.7, 0.03)))
                .isEqualTo(ActivationRule.MAX_NOISE_BAND);
    }

    @Test
    void activatesWhenBetterOverallAndNotWorseBeyondNoiseOnUnseenDocuments() {
        HeldBackScore better = new HeldBackScore(160, 0.70, 0.76, 0.01);

        // unseen documents a little worse, within one standard error (0.006)
        assertThat(ActivationRule.activates(better, new HeldBackScore(80, 0.70, 0.695, 0.006)))
                .isTrue();
        // worse by more than one standard error
        assertThat(ActivationRule.activates(better, new HeldBackScore(80, 0.70, 0.692, 0.006)))
                .isFalse();
        // a noisy hold-out cannot excuse a loss beyond the cap
        assertThat(ActivationRule.activates(better, new HeldBackScore(10, 0.70, 0.685, 0.05)))
                .isFalse();
        // better on unseen documents too
        assertThat(ActivationRule.activates(better, new HeldBackScore(80, 0.70, 0.72, 0.006)))
                .isTrue();
        // no unseen-document query held back: only the overall comparison speaks
        assertThat(ActivationRule.activates(better, HeldBackScore.NONE)).isTrue();
    }

    @Test
    void neverActivatesWithoutAnOverallGain() {
        HeldBackScore unseenBetter = new HeldBackScore(80, 0.60, 0.70, 0.01);

        assertThat(ActivationRule.activates(new HeldBackScore(160, 0.7, 0.7, 0.01), unseenBetter))
                .isFalse();
        assertThat(ActivationRule.activates(new HeldBackScore(160, 0.7, 0.69, 0.01), unseenBetter))
                .isFalse();
    }
}
