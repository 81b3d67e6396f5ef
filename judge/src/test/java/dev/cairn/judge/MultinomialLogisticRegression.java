package dev.cairn.judge;

/**
 * Multinomial logistic regression with an L2 penalty on the weights (not the intercepts), fitted by
 * accelerated gradient descent on the mean (optionally class-weighted) cross-entropy. Small and
 * dependency-free: a {@link VerdictModel} has a few dozen weights. Not thread-safe.
 */
public final class MultinomialLogisticRegression {

    private static final int ITERATIONS = 4000;

    private MultinomialLogisticRegression() {}

    /**
     * Fits the weights.
     *
     * @param x one row of features per example
     * @param y the class of each example, in [0, classes)
     * @param lambda the L2 penalty
     * @param balanced weight each class by the inverse of its frequency
     * @return one row per class: the intercept, then one weight per feature
     */
    public static double[][] fit(
            double[][] x, int[] y, int classes, double lambda, boolean balanced) {
        int n = x.length;
        int d = x[0].length;
        double[] classWeight = new double[classes];
        java.util.Arrays.fill(classWeight, 1.0);
        if (balanced) {
            int[] count = new int[classes];
            for (int label : y) {
                count[label]++;
            }
            for (int c = 0; c < classes; c++) {
                classWeight[c] = count[c] == 0 ? 0 : (double) n / (classes * count[c]);
            }
        }
        double maxNorm = 0;
        for (double[] row : x) {
            double norm = 1;
            for (double v : row) {
                norm += v * v;
            }
            maxNorm = Math.max(maxNorm, norm);
        }
        double maxClassWeight = java.util.Arrays.stream(classWeight).max().orElse(1);
        // the gradient's Lipschitz constant is at most max|x|^2 * max class weight / 2 + lambda
        double step = 1.0 / (maxNorm * maxClassWeight / 2 + lambda);
        double[][] w = new double[classes][d + 1];
        double[][] previous = new double[classes][d + 1];
        double[][] look = new double[classes][d + 1];
        double[][] grad = new double[classes][d + 1];
        for (int it = 1; it <= ITERATIONS; it++) {
            double momentum = (it - 1.0) / (it + 2.0);
            for (int c = 0; c < classes; c++) {
                for (int j = 0; j <= d; j++) {
                    look[c][j] = w[c][j] + momentum * (w[c][j] - previous[c][j]);
                    grad[c][j] = j == 0 ? 0 : lambda * look[c][j];
                }
            }
            for (int i = 0; i < n; i++) {
                double[] p = VerdictModel.softmax(look, x[i]);
                double weight = classWeight[y[i]] / n;
                for (int c = 0; c < classes; c++) {
                    double g = weight * (p[c] - (y[i] == c ? 1 : 0));
                    grad[c][0] += g;
                    for (int j = 0; j < d; j++) {
                        grad[c][j + 1] += g * x[i][j];
                    }
                }
            }
            for (int c = 0; c < classes; c++) {
                for (int j = 0; j <= d; j++) {
                    previous[c][j] = w[c][j];
                    w[c][j] = look[c][j] - step * grad[c][j];
                }
            }
        }
        return w;
    }

    /** The most probable class. */
    public static int predict(double[][] w, double[] x) {
        double[] p = VerdictModel.softmax(w, x);
        int best = 0;
        for (int c = 1; c < p.length; c++) {
            if (p[c] > p[best]) {
                best = c;
            }
        }
        return best;
    }
}
