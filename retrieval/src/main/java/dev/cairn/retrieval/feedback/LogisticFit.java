package dev.cairn.retrieval.feedback;

import java.util.Arrays;

/**
 * Ridge-penalised logistic regression by Newton's method: the weights {@code w} minimising {@code
 * sum_i log(1 + exp(-s_i w . x_i)) + 1/2 sum_j ridge_j w_j^2} with {@code s_i} +1 for a positive
 * row and -1 for a negative one. With a positive ridge on every weight the loss is strictly convex,
 * and Newton's steps (each halved until the loss falls) reach its one minimum in a few passes over
 * the rows. What the learned fusion ({@link LearnedFusion}: pairs, all positive) and the grounding
 * score's fit ({@code dev.cairn.eval.beir.GroundingFit}: rows with an intercept column, not
 * penalised) solve. Stateless.
 */
public final class LogisticFit {

    /** Newton steps at most; a fit usually stops within ten. */
    static final int MAX_STEPS = 100;

    private LogisticFit() {}

    /**
     * The minimising weights, starting from {@code start}.
     *
     * @param rows one feature vector per row, each as long as {@code start}
     * @param positive whether each row is positive
     * @param ridge the penalty per weight, >= 0 (0 for an intercept)
     */
    public static double[] fit(
            double[][] rows, boolean[] positive, double[] ridge, double[] start) {
        int d = start.length;
        double[] w = start.clone();
        double loss = loss(rows, positive, ridge, w);
        for (int it = 0; it < MAX_STEPS; it++) {
            double[] gradient = new double[d];
            double[][] hessian = new double[d][d];
            for (int i = 0; i < rows.length; i++) {
                double[] x = rows[i];
                double p = 1 / (1 + Math.exp(-clamp(dot(w, x))));
                double residual = p - (positive[i] ? 1 : 0);
                double curvature = p * (1 - p);
                for (int j = 0; j < d; j++) {
                    gradient[j] += residual * x[j];
                    for (int k = 0; k < d; k++) {
                        hessian[j][k] += curvature * x[j] * x[k];
                    }
                }
            }
            for (int j = 0; j < d; j++) {
                gradient[j] += ridge[j] * w[j];
                hessian[j][j] += ridge[j];
            }
            double[] step = solve(hessian, gradient);
            double size = 1;
            double[] next = new double[d];
            double nextLoss;
            do {
                for (int j = 0; j < d; j++) {
                    next[j] = w[j] - size * step[j];
                }
                nextLoss = loss(rows, positive, ridge, next);
                size /= 2;
            } while (nextLoss > loss && size > 1e-6);
            if (!(nextLoss <= loss)) {
                break;
            }
            double moved = 0;
            for (int j = 0; j < d; j++) {
                moved = Math.max(moved, Math.abs(next[j] - w[j]));
            }
            w = next;
            loss = nextLoss;
            if (moved < 1e-10) {
                break;
            }
        }
        return w;
    }

    /** The penalised loss of {@code w} on the rows. */
    public static double loss(double[][] rows, boolean[] positive, double[] ridge, double[] w) {
        double sum = 0;
        for (int i = 0; i < rows.length; i++) {
            double margin = (positive[i] ? 1 : -1) * dot(w, rows[i]);
            // log(1 + exp(-m)) without overflow for a large negative margin
            sum +=
                    margin > 0
                            ? Math.log1p(Math.exp(-margin))
                            : -margin + Math.log1p(Math.exp(margin));
        }
        for (int j = 0; j < w.length; j++) {
            sum += ridge[j] / 2 * w[j] * w[j];
        }
        return sum;
    }

    /** Solves {@code a x = b} by Gaussian elimination with partial pivoting. */
    public static double[] solve(double[][] a, double[] b) {
        int n = b.length;
        double[][] m = new double[n][];
        for (int i = 0; i < n; i++) {
            m[i] = Arrays.copyOf(a[i], n + 1);
            m[i][n] = b[i];
        }
        for (int col = 0; col < n; col++) {
            int pivot = col;
            for (int r = col + 1; r < n; r++) {
                if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) {
                    pivot = r;
                }
            }
            double[] swap = m[col];
            m[col] = m[pivot];
            m[pivot] = swap;
            for (int r = col + 1; r < n; r++) {
                double f = m[r][col] / m[col][col];
                for (int c = col; c <= n; c++) {
                    m[r][c] -= f * m[col][c];
                }
            }
        }
        double[] x = new double[n];
        for (int r = n - 1; r >= 0; r--) {
            double sum = m[r][n];
            for (int c = r + 1; c < n; c++) {
                sum -= m[r][c] * x[c];
            }
            x[r] = sum / m[r][r];
        }
        return x;
    }

    private static double clamp(double z) {
        return Math.max(-30, Math.min(30, z));
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
