package dev.cairn.retrieval.feedback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LogisticFitTest {

    @Test
    void solvesALinearSystemThatNeedsAPivot() {
        double[] x = LogisticFit.solve(new double[][] {{0, 2}, {3, 1}}, new double[] {4, 5});
        assertThat(x[0]).isCloseTo(1.0, within(1e-12));
        assertThat(x[1]).isCloseTo(2.0, within(1e-12));
    }

    @Test
    void separableRowsStopAtThePenalisedMinimumInsteadOfRunningAway() {
        // every positive row lies right of every negative one: without the ridge the weight would
        // grow without bound; with it the fit stops where the gradient is zero
        double[][] rows = {{1, -2}, {1, -1}, {1, 1}, {1, 2}};
        boolean[] positive = {false, false, true, true};
        double[] ridge = {0, 0.5};

        double[] w = LogisticFit.fit(rows, positive, ridge, new double[2]);

        double at = LogisticFit.loss(rows, positive, ridge, w);
        for (int j = 0; j < 2; j++) {
            for (double nudge : new double[] {-1e-5, 1e-5}) {
                double[] moved = w.clone();
                moved[j] += nudge;
                assertThat(LogisticFit.loss(rows, positive, ridge, moved)).isGreaterThan(at);
            }
        }
        assertThat(w[0]).isCloseTo(0, within(1e-9)); // symmetric rows: no intercept
        assertThat(w[1]).isBetween(1.0, 10.0);
    }

    @Test
    void recoversTheWeightsThatGeneratedTheLabels() {
        Random random = new Random(9);
        int n = 20_000;
        double[][] rows = new double[n][];
        boolean[] positive = new boolean[n];
        for (int i = 0; i < n; i++) {
            double a = random.nextGaussian();
            rows[i] = new double[] {1, a};
            positive[i] = random.nextDouble() < 1 / (1 + Math.exp(-(0.7 - 1.5 * a)));
        }

        double[] w = LogisticFit.fit(rows, positive, new double[] {0, 1e-3}, new double[2]);

        assertThat(w[0]).isCloseTo(0.7, within(0.08));
        assertThat(w[1]).isCloseTo(-1.5, within(0.08));
    }
}
