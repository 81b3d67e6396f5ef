package dev.cairn.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A learned verdict model decides the claim's verdict in place of the thresholds. */
class VerdictModelTest {

    private static final int FEATURES = ClaimFeatures.NAMES.size();

    /** A model that follows one feature: its verdict's row weighs that feature heavily. */
    private static VerdictModel following(String feature, VerdictModel.Verdict verdict) {
        double[][] w = new double[3][FEATURES + 1];
        w[VerdictModel.Verdict.NOT_ENOUGH_INFO.ordinal()][0] = 1.0;
        w[verdict.ordinal()][ClaimFeatures.NAMES.indexOf(feature) + 1] = 10.0;
        return VerdictModel.learned("test", w);
    }

    private static ClaimVerdict verdict(VerdictModel model, String claim, String evidence) {
        Judge judge =
                Judge.create(
                        JudgeConfig.defaults().withVerdictModel(model),
                        SimilarityFunction.lexical(),
                        PolicyRegistry.builtIn(),
                        SecretDetector.none());
        return judge.judge(
                        JudgeInput.of("q", claim + " [1].", List.of(Evidence.of("e1", evidence))))
                .claims()
                .getFirst();
    }

    @Test
    void aModelThatFollowsTheDirectionCueContradictsOnOppositeDirections() {
        VerdictModel model = following("direction", VerdictModel.Verdict.CONTRADICT);
        ClaimVerdict v =
                verdict(
                        model,
                        "Nightly compaction attenuates read latency on the archive cluster",
                        "Nightly compaction amplified read latency on the archive cluster.");
        assertThat(v.contradicted()).isTrue();
        assertThat(v.supported()).isFalse();
        assertThat(v.contradictedBy()).containsExactly("e1");
        assertThat(v.reasons())
                .anySatisfy(r -> assertThat(r).startsWith("verdict model test: CONTRADICT"));

        ClaimVerdict agreeing =
                verdict(
                        model,
                        "Nightly compaction attenuates read latency on the archive cluster",
                        "Nightly compaction attenuated read latency on the archive cluster.");
        assertThat(agreeing.contradicted()).isFalse();
        assertThat(agreeing.supported()).isFalse();
    }

    @Test
    void aModelThatFollowsTheBestScoreSupportsTheBestAlignedItem() {
        VerdictModel model = following("best score", VerdictModel.Verdict.SUPPORT);
        ClaimVerdict v =
                verdict(
                        model,
                        "The replica lag alarm fires after thirty seconds",
                        "The replica lag alarm fires after thirty seconds of delay.");
        assertThat(v.supported()).isTrue();
        assertThat(v.supportedBy()).containsExactly("e1");

        ClaimVerdict unrelated =
                verdict(
                        model,
                        "The replica lag alarm fires after thirty seconds",
                        "Bake at 200 degrees.");
        assertThat(unrelated.supported()).isFalse();
        assertThat(unrelated.contradicted()).isFalse();
    }

    @Test
    void weightsOfTheWrongShapeAreRejected() {
        assertThatThrownBy(() -> VerdictModel.learned("bad", new double[2][FEATURES + 1]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one per verdict");
        assertThatThrownBy(() -> VerdictModel.learned("bad", new double[3][FEATURES]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("intercept");
    }
}
