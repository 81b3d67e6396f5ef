package dev.cairn.eval.beir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GroundingFitTest {

    @Test
    void recoversTheWeightsThatGeneratedTheLabels() {
        // labels drawn from a known logistic model: the fit lands near its weights, and an
        // irrelevant feature gets a weight near zero
        Random random = new Random(42);
        List<GroundingFit.Row> rows = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            double a = random.nextGaussian();
            double noise = random.nextGaussian();
            double p = 1 / (1 + Math.exp(-(-0.5 + 2.0 * a)));
            rows.add(
                    new GroundingFit.Row(
                            "q" + i, new double[] {a, noise}, random.nextDouble() < p));
        }
        double[] w = GroundingFit.fit(rows);
        assertThat(w[0]).isCloseTo(-0.5, within(0.1));
        assertThat(w[1]).isCloseTo(2.0, within(0.1));
        assertThat(w[2]).isCloseTo(0.0, within(0.1));
        assertThat(GroundingFit.auroc(w, rows)).isGreaterThan(0.8);
        assertThat(GroundingFit.auroc(new double[] {0, -2.0, 0}, rows))
                .isCloseTo(1 - GroundingFit.auroc(w, rows), within(0.01));
    }

    @Test
    void splitsQueriesByTheParityOfTheirSmallestRelevantDocument() throws Exception {
        java.nio.file.Path qrels = java.nio.file.Files.createTempFile("qrels", ".tsv");
        java.nio.file.Files.writeString(
                qrels, "query-id\tcorpus-id\tscore\n1\t7\t1\n1\t4\t1\n2\t9\t1\n2\t2\t0\n");
        Qrels q = Beir.qrels(qrels);
        assertThat(GroundingFit.tuneHalf(q, "1")).isTrue(); // smallest relevant 4
        assertThat(GroundingFit.tuneHalf(q, "2")).isFalse(); // 2 is not relevant; 9
        java.nio.file.Files.delete(qrels);
    }
}
