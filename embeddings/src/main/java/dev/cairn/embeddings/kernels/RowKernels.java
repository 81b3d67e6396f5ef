package dev.cairn.embeddings.kernels;

/**
 * Java loops over one row of activations, for {@code bert.Int8ShortPass}: LayerNorm, exact GELU, L2
 * normalisation. Written so C2 vectorises them: no branches in the element loops, and sums kept in
 * eight independent accumulators (a single float accumulator is one chain of dependent adds, which
 * C2 may not reorder, four cycles per element).
 */
public final class RowKernels {

    private RowKernels() {}

    /**
     * {@code out[o..o+n) = (x - mean) / sqrt(var + eps) · gamma + beta} over {@code x[i..i+n)}, the
     * biased variance as BERT's LayerNorm; {@code out} may be {@code x}.
     */
    public static void layerNorm(
            float[] x, int i, float[] gamma, float[] beta, float eps, float[] out, int o) {
        int n = gamma.length;
        float mean = sum(x, i, n) / n;
        float squares = 0;
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
        int k = 0;
        for (; k + 8 <= n; k += 8) {
            float d0 = x[i + k] - mean, d1 = x[i + k + 1] - mean;
            float d2 = x[i + k + 2] - mean, d3 = x[i + k + 3] - mean;
            float d4 = x[i + k + 4] - mean, d5 = x[i + k + 5] - mean;
            float d6 = x[i + k + 6] - mean, d7 = x[i + k + 7] - mean;
            s0 += d0 * d0;
            s1 += d1 * d1;
            s2 += d2 * d2;
            s3 += d3 * d3;
            s4 += d4 * d4;
            s5 += d5 * d5;
            s6 += d6 * d6;
            s7 += d7 * d7;
        }
        for (; k < n; k++) {
            float d = x[i + k] - mean;
            squares += d * d;
        }
        squares += combined(s0, s1, s2, s3, s4, s5, s6, s7);
        float scale = inverseDeviation(squares, n, eps);
        for (int j = 0; j < n; j++) {
            out[o + j] = normalised(x[i + j], mean, scale, gamma[j], beta[j]);
        }
    }

    /**
     * LayerNorm's {@code 1 / sqrt(variance + eps)} from the sum of squared deviations of n values.
     */
    static float inverseDeviation(float squares, int n, float eps) {
        return (float) (1.0 / Math.sqrt(squares / n + eps));
    }

    /** One LayerNorm output: {@code (x - mean) · scale · gamma + beta}, in that order. */
    static float normalised(float x, float mean, float scale, float gamma, float beta) {
        return (x - mean) * scale * gamma + beta;
    }

    /** Eight partial sums added in the one order every LayerNorm sum here uses. */
    static float combined(
            float s0, float s1, float s2, float s3, float s4, float s5, float s6, float s7) {
        return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    }

    /** {@code x[i..i+n)} summed in eight interleaved partial sums. */
    static float sum(float[] x, int i, int n) {
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
        int k = 0;
        for (; k + 8 <= n; k += 8) {
            s0 += x[i + k];
            s1 += x[i + k + 1];
            s2 += x[i + k + 2];
            s3 += x[i + k + 3];
            s4 += x[i + k + 4];
            s5 += x[i + k + 5];
            s6 += x[i + k + 6];
            s7 += x[i + k + 7];
        }
        float rest = 0;
        for (; k < n; k++) {
            rest += x[i + k];
        }
        return combined(s0, s1, s2, s3, s4, s5, s6, s7) + rest;
    }

    static final float FRAC_1_SQRT_2 = 0.70710678118654752f;

    // erf's numerator and denominator coefficients in x², highest power first
    static final float P0 = -2.72614225801306e-10f;
    static final float P1 = 2.77068142495902e-08f;
    static final float P2 = -2.10102402082508e-06f;
    static final float P3 = -5.69250639462346e-05f;
    static final float P4 = -7.34990630326855e-04f;
    static final float P5 = -2.95459980854025e-03f;
    static final float P6 = -1.60960333262415e-02f;
    static final float Q0 = -1.45660718464996e-05f;
    static final float Q1 = -2.13374055278905e-04f;
    static final float Q2 = -1.68282697438203e-03f;
    static final float Q3 = -7.37332916720468e-03f;
    static final float Q4 = -1.42647390514189e-02f;

    /** BERT's exact GELU, {@code x · (1 + erf(x / √2)) / 2}, over {@code x[0..n)} in place. */
    public static void gelu(float[] x, int n) {
        for (int k = 0; k < n; k++) {
            x[k] = gelu(x[k]);
        }
    }

    /** BERT's exact GELU of one value. */
    static float gelu(float x) {
        return 0.5f * x * (1f + erf(x * FRAC_1_SQRT_2));
    }

    /**
     * The error function in float32: the rational approximation Eigen and XLA use for it, {@code
     * x·P(x²)/Q(x²)} on {@code [-4, 4]} (outside, erf is ±1 to float precision), absolute error
     * below 4e-7 against erf in double (RowKernelsTest: 3.2e-7, under three float steps near ±1),
     * far below the int8 rounding the pass's activations then go through. Branch-free, so a loop
     * over it vectorises, where {@code 1 - t·poly(t)·exp(-x²)} would call {@link Math#exp} per
     * element.
     */
    static float erf(float x) {
        float c = Math.max(-4f, Math.min(4f, x));
        float c2 = c * c;
        float p = c2 * P0 + P1;
        p = p * c2 + P2;
        p = p * c2 + P3;
        p = p * c2 + P4;
        p = p * c2 + P5;
        p = p * c2 + P6;
        float q = c2 * Q0 + Q1;
        q = q * c2 + Q2;
        q = q * c2 + Q3;
        q = q * c2 + Q4;
        return c * p / q;
    }

    /** {@code v / max(‖v‖₂, 1e-12)} in place, as PyTorch's {@code normalize(p=2, eps=1e-12)}. */
    public static void normalise(float[] v) {
        double squares = 0;
        for (float f : v) {
            squares += (double) f * f;
        }
        float scale = (float) (1.0 / Math.max(Math.sqrt(squares), 1e-12));
        for (int k = 0; k < v.length; k++) {
            v[k] *= scale;
        }
    }
}
