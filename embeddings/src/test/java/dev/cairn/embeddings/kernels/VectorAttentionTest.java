package dev.cairn.embeddings.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import java.lang.foreign.MemorySegment;
import java.nio.FloatBuffer;
import java.util.Random;
import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Java attention against softmax attention written out in double precision and against ATen's fused
 * attention it replaces; inside the encoder on both kinds of pass in {@code
 * bert.VectorAttentionEncoderTest}.
 */
class VectorAttentionTest {

    private static final int HEADS = 4;

    /** The encoder's additive mask for padding ({@code BertEncoder.MASKED_LOGIT}). */
    private static final float MASKED_LOGIT = -1e9f;

    private static SpinningHelpers twoThreads;
    private static SpinningHelpers oneThread;

    @BeforeAll
    static void start() {
        twoThreads = new SpinningHelpers("vector-attention-test", 2);
        oneThread = new SpinningHelpers("vector-attention-test-alone", 1);
    }

    /** Q, K and V rows of {@code b·t} tokens, {@code [b·t, 3·HEADS·headDim]}, seeded. */
    private static float[] randomQkv(int b, int t, int headDim, long seed) {
        Random random = new Random(seed);
        float[] qkv = new float[b * t * 3 * HEADS * headDim];
        for (int i = 0; i < qkv.length; i++) {
            qkv[i] = (float) random.nextGaussian();
        }
        return qkv;
    }

    private static float[] run(
            SpinningHelpers helpers,
            int headDim,
            float[] qkv,
            int[] lengths,
            int t,
            boolean firstOnly) {
        VectorAttention attention = VectorAttention.load(HEADS, headDim, helpers).orElseThrow();
        int rows = firstOnly ? lengths.length : lengths.length * t;
        float[] out = new float[rows * HEADS * headDim];
        attention.apply(
                MemorySegment.ofArray(qkv), lengths, t, firstOnly, MemorySegment.ofArray(out));
        return out;
    }

    /** Softmax attention of each real row over its input's real tokens, in double. */
    private static double[] reference(float[] qkv, int[] lengths, int t, int headDim) {
        int hidden = HEADS * headDim;
        double[] out = new double[lengths.length * t * hidden];
        for (int j = 0; j < lengths.length; j++) {
            for (int h = 0; h < HEADS; h++) {
                for (int i = 0; i < lengths[j]; i++) {
                    int query = (j * t + i) * 3 * hidden + h * headDim;
                    double[] logits = new double[lengths[j]];
                    double max = Double.NEGATIVE_INFINITY;
                    for (int n = 0; n < lengths[j]; n++) {
                        int key = (j * t + n) * 3 * hidden + hidden + h * headDim;
                        for (int d = 0; d < headDim; d++) {
                            logits[n] += (double) qkv[query + d] * qkv[key + d];
                        }
                        max = Math.max(max, logits[n]);
                    }
                    double sum = 0;
                    for (int n = 0; n < lengths[j]; n++) {
                        logits[n] = Math.exp(logits[n] - max);
                        sum += logits[n];
                    }
                    for (int n = 0; n < lengths[j]; n++) {
                        int value = (j * t + n) * 3 * hidden + 2 * hidden + h * headDim;
                        for (int d = 0; d < headDim; d++) {
                            out[(j * t + i) * hidden + h * headDim + d] +=
                                    logits[n] / sum * qkv[value + d];
                        }
                    }
                }
            }
        }
        return out;
    }

    @Test
    void matchesSoftmaxAttentionOverEachInputsOwnTokens() {
        // 101 and 37 tokens: neither a whole number of vectors nor of eight-row blocks (101 also
        // runs the maximum's four chains); 48 a whole number of vectors but not of pairs; a lone
        // token
        int t = 101;
        int[] lengths = {101, 37, 20, 48, 1};
        for (int headDim : new int[] {32, 64}) {
            float[] qkv = randomQkv(lengths.length, t, headDim, 20261127L + headDim);
            assertMatchesReference(qkv, lengths, t, headDim);
        }
    }

    @Test
    void logitsFarBelowZeroStillGiveProbabilities() {
        // every query·key near -128: were padding's zero logits taken for the maximum, exp would
        // underflow to zero for every real key and the rows would be NaN
        int t = 37;
        int[] lengths = {37, 20};
        int headDim = 32;
        float[] qkv = randomQkv(lengths.length, t, headDim, 7L);
        int hidden = HEADS * headDim;
        for (int row = 0; row < lengths.length * t; row++) {
            for (int c = 0; c < hidden; c++) {
                qkv[row * 3 * hidden + c] = 2f + 0.02f * qkv[row * 3 * hidden + c];
                qkv[row * 3 * hidden + hidden + c] = -2f + 0.02f * qkv[row * 3 * hidden + c];
            }
        }
        assertMatchesReference(qkv, lengths, t, headDim);
    }

    private static void assertMatchesReference(float[] qkv, int[] lengths, int t, int headDim) {
        float[] actual = run(twoThreads, headDim, qkv, lengths, t, false);

        double[] expected = reference(qkv, lengths, t, headDim);
        int hidden = HEADS * headDim;
        for (int j = 0; j < lengths.length; j++) {
            for (int i = 0; i < t; i++) {
                for (int c = 0; c < hidden; c++) {
                    int o = (j * t + i) * hidden + c;
                    if (i < lengths[j]) {
                        assertThat((double) actual[o])
                                .as("input %d row %d column %d", j, i, c)
                                .isCloseTo(expected[o], offset(2e-5));
                    } else {
                        assertThat(actual[o]).as("padding row %d of input %d", i, j).isZero();
                    }
                }
            }
        }
    }

    @Test
    void paddingTokensDoNotCount() {
        int t = 19;
        int[] lengths = {19, 11};
        int hidden = HEADS * 32;
        float[] qkv = randomQkv(2, t, 32, 7);
        float[] before = run(twoThreads, 32, qkv, lengths, t, false);
        // scramble every padding token's queries, keys and values
        for (int i = 11; i < t; i++) {
            for (int c = 0; c < 3 * hidden; c++) {
                qkv[(t + i) * 3 * hidden + c] = 1e4f;
            }
        }

        assertThat(run(twoThreads, 32, qkv, lengths, t, false)).isEqualTo(before);
    }

    @Test
    void firstRowsOnlyAreTheFullResultsFirstRows() {
        int t = 29;
        int[] lengths = {29, 3, 17};
        int hidden = HEADS * 32;
        float[] qkv = randomQkv(3, t, 32, 11);
        float[] full = run(twoThreads, 32, qkv, lengths, t, false);

        float[] first = run(twoThreads, 32, qkv, lengths, t, true);

        assertThat(first).hasSize(3 * hidden);
        for (int j = 0; j < 3; j++) {
            for (int c = 0; c < hidden; c++) {
                assertThat(first[j * hidden + c]).isEqualTo(full[j * t * hidden + c]);
            }
        }
    }

    @Test
    void howTheHeadsAreSplitAcrossThreadsDoesNotChangeABit() {
        int t = 45;
        int[] lengths = {45, 30, 44};
        float[] qkv = randomQkv(3, t, 32, 13);

        assertThat(run(oneThread, 32, qkv, lengths, t, false))
                .isEqualTo(run(twoThreads, 32, qkv, lengths, t, false));
    }

    @Test
    void matchesTheFusedAttentionItReplaces() {
        int t = 70;
        int[] lengths = {70, 52};
        int headDim = 32;
        int hidden = HEADS * headDim;
        float[] qkv = randomQkv(2, t, headDim, 17);
        float[] actual = run(twoThreads, headDim, qkv, lengths, t, false);

        FusedAttention fused = FusedAttention.supported().orElseThrow();
        float[] expected =
                TorchRuntime.onInferenceThread(
                        () -> {
                            try (NDManager m = TorchRuntime.engine().newBaseManager()) {
                                NDArray rows =
                                        m.create(
                                                FloatBuffer.wrap(qkv),
                                                new Shape(2L * t, 3L * hidden));
                                NDArray byHead =
                                        rows.reshape(2, t, 3, HEADS, headDim)
                                                .transpose(2, 0, 3, 1, 4);
                                float[] bias = new float[2 * t];
                                for (int i = 52; i < t; i++) {
                                    bias[t + i] = MASKED_LOGIT;
                                }
                                NDArray mask =
                                        m.create(FloatBuffer.wrap(bias), new Shape(2, 1, 1, t));
                                return fused.apply(
                                                byHead.get(0),
                                                byHead.get(1),
                                                byHead.get(2),
                                                mask,
                                                1.0)
                                        .transpose(0, 2, 1, 3)
                                        .toFloatArray();
                            }
                        });

        for (int j = 0; j < 2; j++) {
            for (int i = 0; i < lengths[j]; i++) {
                for (int c = 0; c < hidden; c++) {
                    int o = (j * t + i) * hidden + c;
                    assertThat(actual[o]).isCloseTo(expected[o], offset(1e-5f));
                }
            }
        }
    }

    @Test
    void headsThatAreNotWholeVectorPairsAreLeftToFusedAttention() {
        int lanes = FloatVector.SPECIES_PREFERRED.length();
        assertThat(VectorAttention.load(HEADS, 9, twoThreads)).isEmpty();
        assertThat(VectorAttention.load(HEADS, lanes, twoThreads)).isEmpty();
        assertThat(VectorAttention.load(HEADS, 3 * lanes, twoThreads)).isEmpty();
        assertThat(VectorAttention.load(HEADS, 2 * lanes, twoThreads)).isPresent();
        assertThat(VectorAttention.load(HEADS, 32, twoThreads)).isPresent();
    }

    @Test
    void rejectsInputsOfTheWrongSize() {
        VectorAttention attention = VectorAttention.load(HEADS, 32, twoThreads).orElseThrow();
        int hidden = HEADS * 32;
        MemorySegment qkv = MemorySegment.ofArray(new float[2 * 5 * 3 * hidden]);
        MemorySegment out = MemorySegment.ofArray(new float[2 * 5 * hidden]);

        assertThatThrownBy(() -> attention.apply(qkv, new int[] {5, 5}, 4, false, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("illegal qkv");
        assertThatThrownBy(() -> attention.apply(qkv, new int[] {5, 5}, 5, true, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("illegal output");
        assertThatThrownBy(() -> attention.apply(qkv, new int[] {5, 0}, 5, false, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("illegal length: 0");
        assertThatThrownBy(() -> attention.apply(qkv, new int[] {6, 5}, 5, false, out))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("illegal length: 6");
        assertThatThrownBy(() -> VectorAttention.load(0, 32, twoThreads))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
