package dev.cairn.judge.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.judge.SimilarityFunction;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * On demand only, it reads 8 MB and judges the 809 claims many times:
 *
 * <pre>{@code
 * ./mvnw -B -pl judge test -Dtest=SciFactEvaluationTest \
 *     -Dcairn.eval.scifact=/work/shared/datasets/scifact-claims
 * }</pre>
 */
@EnabledIfSystemProperty(named = "cairn.eval.scifact", matches = ".+")
class SciFactEvaluationTest {

    /** Macro-F1 of the lexical similarity at its calibrated thresholds, measured on train. */
    static final double LEXICAL_BASELINE_MACRO_F1 = 0.567;

    /** Allowed drop below the baseline before the test fails. */
    static final double TOLERANCE = 0.02;

    @Test
    void lexicalSimilarityHoldsItsBaselineOnSciFactTrain() {
        StringBuilder report = new StringBuilder();
        SciFactEvaluation.Result best =
                SciFactEvaluation.evaluate(
                        Path.of(System.getProperty("cairn.eval.scifact")),
                        SimilarityFunction.lexical(),
                        Path.of("target/eval"),
                        report);
        System.out.print(report);

        assertThat(best.macroF1())
                .as("macro-F1 on SciFact train\n%s", report)
                .isGreaterThanOrEqualTo(LEXICAL_BASELINE_MACRO_F1 - TOLERANCE);
    }
}
