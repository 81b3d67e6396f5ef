package dev.cairn.embeddings.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.norm.LayerNorm;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link RowKernels} against erf in double and against PyTorch's own kernels on the same rows. */
class RowKernelsTest {

    private static final long SEED = 20261127L;

    @Test
    void erfIsWithinAFewFloatStepsOfErfInDouble() {
        // erf in double by Simpson's rule, accumulated interval by interval from erf(0) = 0
        double step = 1e-3;
        int subintervals = 8;
        double integral = 0;
        double worst = Math.abs(RowKernels.erf(0f));
        for (int i = 1; i <= 6000; i++) {
            double from = (i - 1) * step;
            double h = step / subintervals;
            double simpson = gauss(from) + gauss(from + step);
            for (int s = 1; s < subintervals; s++) {
                simpson += (s % 2 == 1 ? 4 : 2) * gauss(from + s * h);
            }
            integral += simpson * h / 3;
            double erf = 2 / Math.sqrt(Math.PI) * integral;
            float x = (float) (i * step);
            // the grid point as a float differs from i * step by under 1e-9: erf moves less
            worst = Math.max(worst, Math.abs(RowKernels.erf(x) - erf));
            assertThat(RowKernels.erf(-x)).isEqualTo(-RowKernels.erf(x));
        }
        // measured 3.2e-7: under three float steps (1.2e-7) near erf = 1
        assertThat(worst).isLessThan(4e-7);
        assertThat(RowKernels.erf(Float.POSITIVE_INFINITY)).isEqualTo(1f, within(1e-7f));
        assertThat(RowKernels.erf(-1e30f)).isEqualTo(-1f, within(1e-7f));
    }

    private static double gauss(double t) {
        return Math.exp(-t * t);
    }

    @Test
    void geluMatchesPyTorchsExactGelu() {
        float[] x = new float[20_001];
        for (int i = 0; i < x.length; i++) {
            x[i] = (i - 10_000) * 1e-3f; // [-10, 10]
        }
        try (NDManager manager = TorchRuntime.engine().newBaseManager()) {
            float[] expected = Activation.gelu(manager.create(x)).toFloatArray();
            float[] actual = x.clone();
            RowKernels.gelu(actual, actual.length);
            for (int i = 0; i < x.length; i++) {
                assertThat(actual[i])
                        .as("gelu(%s)", x[i])
                        .isCloseTo(expected[i], within(5e-7f * Math.max(1f, Math.abs(x[i]))));
            }
        }
    }

    @Test
    void layerNormMatchesPyTorchsOnRowsOfVariedScale() {
        Random random = new Random(SEED);
        int rows = 50;
        int n = 384;
        float[] x = new float[rows * n];
        for (int i = 0; i < x.length; i++) {
            // an offset and a spread per row, as hidden states have
            x[i] = (float) (random.nextGaussian() * (1 + i / n % 9) + (i / n % 5) * 3);
        }
        float[] gamma = new float[n];
        float[] beta = new float[n];
        for (int k = 0; k < n; k++) {
            gamma[k] = (float) (1 + 0.2 * random.nextGaussian());
            beta[k] = (float) (0.1 * random.nextGaussian());
        }
        try (NDManager manager = TorchRuntime.engine().newBaseManager()) {
            NDArray normed =
                    LayerNorm.layerNorm(
                                    manager.create(x, new Shape(rows, n)),
                                    new Shape(n),
                                    manager.create(gamma),
                                    manager.create(beta),
                                    1e-12f)
                            .singletonOrThrow();
            float[] expected = normed.toFloatArray();
            float[] actual = new float[x.length];
            for (int r = 0; r < rows; r++) {
                RowKernels.layerNorm(x, r * n, gamma, beta, 1e-12f, actual, r * n);
            }
            assertThat(actual).containsExactly(expected, within(2e-6f));
            // in place, as the embedding rows are normalised
            float[] inPlace = x.clone();
            RowKernels.layerNorm(inPlace, n, gamma, beta, 1e-12f, inPlace, n);
            for (int k = 0; k < n; k++) {
                assertThat(inPlace[n + k]).isEqualTo(actual[n + k]);
            }
        }
    }

    @Test
    void sumAndNormaliseCoverEveryElement() {
        float[] x = new float[19]; // two groups of eight and a tail of three
        for (int i = 0; i < x.length; i++) {
            x[i] = i + 1;
        }
        assertThat(RowKernels.sum(x, 0, 19)).isEqualTo(190f);
        assertThat(RowKernels.sum(x, 2, 9)).isEqualTo(3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11f);

        float[] v = {3, 0, -4};
        RowKernels.normalise(v);
        assertThat(v).containsExactly(new float[] {0.6f, 0f, -0.8f}, within(1e-7f));
        float[] zero = new float[4];
        RowKernels.normalise(zero);
        assertThat(zero).containsOnly(0f);
    }
}
