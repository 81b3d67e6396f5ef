package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.store.Authority;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GroundingTest {

    static RetrievedHit hit(double fused, double dense, int lexicalRank, int denseRank) {
        return new RetrievedHit(
                "d#0",
                "d",
                "",
                "",
                "",
                fused,
                Authority.UNVERIFIED,
                Map.of(Signal.LEXICAL, lexicalRank, Signal.DENSE, denseRank),
                Map.of(Signal.DENSE, dense));
    }

    @Test
    void noHitsIsNoGrounding() {
        assertThat(Grounding.score(List.of())).isZero();
    }

    @Test
    void scoreIsTheFittedLogisticOfTheTopHitsFeatures() {
        // dense 0.85, both signals rank it in their top 3, fused margin (0.03 - 0.024) / 0.03 = 0.2
        double z =
                Grounding.INTERCEPT
                        + Grounding.DENSE * 0.85
                        + Grounding.AGREEMENT
                        + Grounding.MARGIN * 0.2;
        double score = Grounding.score(List.of(hit(0.03, 0.85, 1, 2), hit(0.024, 0.8, 2, 1)));
        assertThat(score).isCloseTo(1 / (1 + Math.exp(-z)), within(1e-12));
    }

    @Test
    void moreSimilarAgreedAndClearerTopHitsScoreHigher() {
        RetrievedHit runnerUp = hit(0.02, 0.7, 2, 2);
        double weak = Grounding.score(List.of(hit(0.021, 0.70, 9, 8), runnerUp));
        double similar = Grounding.score(List.of(hit(0.021, 0.85, 9, 8), runnerUp));
        double agreed = Grounding.score(List.of(hit(0.021, 0.85, 1, 1), runnerUp));
        double clear = Grounding.score(List.of(hit(0.04, 0.85, 1, 1), runnerUp));
        assertThat(weak).isLessThan(similar);
        assertThat(similar).isLessThan(agreed);
        assertThat(agreed).isLessThan(clear);
        assertThat(clear).isLessThanOrEqualTo(1.0);
        assertThat(weak).isGreaterThanOrEqualTo(0.0);
    }

    @Test
    void defaultThresholdsSplitThePlanAtPointEightAndPointFive() {
        Grounding.Thresholds t = Grounding.Thresholds.DEFAULTS;
        assertThat(t.plan(0.8)).isEqualTo(Plan.DIRECT);
        assertThat(t.plan(0.79)).isEqualTo(Plan.SCOPED);
        assertThat(t.plan(0.5)).isEqualTo(Plan.SCOPED);
        assertThat(t.plan(0.49)).isEqualTo(Plan.DEFER);
        assertThatThrownBy(() -> new Grounding.Thresholds(0.4, 0.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scoped 0.5");
    }
}
