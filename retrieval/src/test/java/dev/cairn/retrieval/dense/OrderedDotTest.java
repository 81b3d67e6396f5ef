package dev.cairn.retrieval.dense;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.util.VectorUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OrderedDotTest {

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 5, 15, 16, 17, 37, 63, 64, 65, 100, 384, 385, 768, 1024})
    void bothVectorShapesGiveTheScalarLoopsBits(int length) {
        Random random = new Random(length);
        for (int trial = 0; trial < 50; trial++) {
            float[] a = gaussian(random, length);
            float[] b = gaussian(random, length);
            float scalar = OrderedDot.scalar(a, b);
            assertThat(Float.floatToIntBits(VectorOrderedDot.dot16(a, b)))
                    .isEqualTo(Float.floatToIntBits(scalar));
            assertThat(Float.floatToIntBits(VectorOrderedDot.dot8(a, b)))
                    .isEqualTo(Float.floatToIntBits(scalar));
            assertThat(Float.floatToIntBits((float) UnitVectors.cosine(a, b)))
                    .isEqualTo(Float.floatToIntBits(scalar));
            assertThat((double) scalar).isCloseTo(exact(a, b), within(1e-4 * (1 + length)));
        }
    }

    @Test
    void theSameVectorsGiveTheSameBitsFromTheFirstCallToTheCompiledOnes() {
        // Lucene's reduction gave this check two answers one ulp apart (interpreted, then C2)
        Random random = new Random(7);
        float[] a = gaussian(random, 384);
        float[] b = gaussian(random, 384);
        Set<Integer> ours = new HashSet<>();
        for (int call = 0; call < 40_000; call++) {
            ours.add(Float.floatToIntBits((float) UnitVectors.cosine(a, b)));
        }
        assertThat(ours).hasSize(1);
        assertThat((double) Float.intBitsToFloat(ours.iterator().next()))
                .isCloseTo(VectorUtil.dotProduct(a, b), within(1e-4));
    }

    @Test
    void aUnitVectorsCosineWithItselfIsOne() {
        float[] v = gaussian(new Random(3), 384);
        VectorUtil.l2normalize(v);
        assertThat(UnitVectors.cosine(v, v)).isCloseTo(1.0, within(1e-6));
    }

    @Test
    void vectorsOfDifferentLengthsAreRefused() {
        assertThatThrownBy(() -> UnitVectors.cosine(new float[384], new float[383]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("vectors of different lengths: 384 and 383");
    }

    private static float[] gaussian(Random random, int length) {
        float[] v = new float[length];
        for (int i = 0; i < length; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }

    private static double exact(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += (double) a[i] * b[i];
        }
        return sum;
    }
}
