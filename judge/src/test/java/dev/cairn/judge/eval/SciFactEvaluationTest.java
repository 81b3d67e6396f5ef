package dev.cairn.judge.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.judge.SimilarityFunction;
import dev.cairn.retrieval.TestModel;
import java.io.IOException;
import java.nio.file.Files;
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

    /**
     * BERT (the default bge-small model) alone and blended half and half with the lexical TF-IDF,
     * each calibrated on train; the report lands in {@code target/eval/scifact-bert.txt}. The
     * macro-F1 target of issue 8 is 0.50.
     */
    @Test
    void bertSimilarityAloneAndBlendedReachTheTargetOnSciFactTrain() throws IOException {
        Path data = Path.of(System.getProperty("cairn.eval.scifact"));
        Path out = Path.of("target/eval");
        SimilarityFunction bert =
                new SciFactEvaluation.CachingSimilarity(
                        SimilarityFunction.embedding(TestModel.get()));
        StringBuilder report = new StringBuilder();
        SciFactEvaluation.Result alone = SciFactEvaluation.evaluate(data, bert, out, report);
        report.append("\n\n");
        SciFactEvaluation.Result blended =
                SciFactEvaluation.evaluate(
                        data,
                        SimilarityFunction.blend(SimilarityFunction.lexical(), bert, 0.5),
                        out,
                        report);
        Files.createDirectories(out);
        Files.writeString(out.resolve("scifact-bert.txt"), report);
        System.out.print(report);

        assertThat(Math.max(alone.macroF1(), blended.macroF1()))
                .as("macro-F1 on SciFact train\n%s", report)
                .isGreaterThanOrEqualTo(0.50);
    }
}
