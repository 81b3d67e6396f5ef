package dev.cairn.embeddings.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Vector API's row loops give Int8Linear's scalar loops' bits, tails and all. */
class VectorRowsTest {

    private static final int ROWS = 40;

    /** Whole vectors (384), a tail after them (37), less than one vector (5). */
    @ParameterizedTest
    @ValueSource(ints = {384, 37, 5})
    void quantisesRowsAsTheScalarLoopDoes(int width) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment x = floats(arena, ROWS * width, new Random(width));
            // a row of zeros (step from the smallest normal) and one with a huge outlier
            x.asSlice(0, (long) width * Float.BYTES).fill((byte) 0);
            x.setAtIndex(ValueLayout.JAVA_FLOAT, width + width / 2, 3.0e4f);
            MemorySegment scalar = arena.allocate((long) ROWS * width);
            MemorySegment vector = arena.allocate((long) ROWS * width);
            float[] scalarSteps = new float[ROWS];
            float[] vectorSteps = new float[ROWS];

            Int8Linear.quantiseRows(x, scalar, scalarSteps, width, 0, ROWS);
            VectorRows.quantiseRows(x, vector, vectorSteps, width, 0, ROWS);

            assertThat(vector.mismatch(scalar)).isEqualTo(-1);
            assertThat(vectorSteps).containsExactly(scalarSteps);
            assertThat(vector.get(ValueLayout.JAVA_BYTE, width + width / 2)).isEqualTo((byte) 127);
            assertThat(vector.asSlice(0, width).toArray(ValueLayout.JAVA_BYTE))
                    .containsOnly((byte) 0);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1536, 37, 5})
    void rescalesRowsInPlaceAsTheScalarLoopDoes(int width) {
        Random random = new Random(width);
        float[] scales = new float[width];
        float[] bias = new float[width];
        for (int n = 0; n < width; n++) {
            scales[n] = random.nextFloat() * 1e-3f;
            bias[n] = (float) random.nextGaussian();
        }
        float[] steps = new float[ROWS];
        for (int r = 0; r < ROWS; r++) {
            steps[r] = random.nextFloat() * 0.1f;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sums = arena.allocate((long) ROWS * width * Integer.BYTES);
            for (long i = 0; i < (long) ROWS * width; i++) {
                sums.setAtIndex(ValueLayout.JAVA_INT, i, random.nextInt(-2_000_000, 2_000_000));
            }
            MemorySegment scalar = arena.allocate(sums.byteSize());
            MemorySegment vector = arena.allocate(sums.byteSize());
            scalar.copyFrom(sums);
            vector.copyFrom(sums);

            // rows 3 to 29 only: the others must keep their int32 sums
            Int8Linear.rescaleRows(scalar, steps, scales, bias, 3, 30);
            VectorRows.rescaleRows(vector, steps, scales, bias, 3, 30);

            assertThat(vector.mismatch(scalar)).isEqualTo(-1);
            long rowBytes = (long) width * Integer.BYTES;
            assertThat(vector.asSlice(0, 3 * rowBytes).mismatch(sums.asSlice(0, 3 * rowBytes)))
                    .isEqualTo(-1);
            assertThat(vector.asSlice(30 * rowBytes).mismatch(sums.asSlice(30 * rowBytes)))
                    .isEqualTo(-1);
            long last = 29L * width + width - 1;
            assertThat(vector.getAtIndex(ValueLayout.JAVA_FLOAT, last))
                    .isEqualTo(
                            sums.getAtIndex(ValueLayout.JAVA_INT, last)
                                            * scales[width - 1]
                                            * steps[29]
                                    + bias[width - 1]);
        }
    }

    /** Against Int8ShortPass's row loop: rescale, GELU, quantise, one row at a time. */
    @ParameterizedTest
    @ValueSource(ints = {1536, 37, 5})
    void rescalesGelusAndQuantisesAsTheShortPassDoes(int width) {
        Random random = new Random(width + 1);
        float[] scales = new float[width];
        float[] bias = new float[width];
        for (int n = 0; n < width; n++) {
            scales[n] = random.nextFloat() * 2e-6f;
            bias[n] = (float) random.nextGaussian();
        }
        float[] steps = new float[ROWS];
        for (int r = 0; r < ROWS; r++) {
            steps[r] = random.nextFloat();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sums = arena.allocate((long) ROWS * width * Integer.BYTES);
            for (long i = 0; i < (long) ROWS * width; i++) {
                // products of up to a few units, GELU's curved part and both tails
                sums.setAtIndex(ValueLayout.JAVA_INT, i, random.nextInt(-4_000_000, 4_000_000));
            }
            MemorySegment vector = arena.allocate((long) ROWS * width);
            float[] vectorSteps = new float[ROWS];
            VectorRows.rescaleGeluQuantiseRows(
                    sums, steps, scales, bias, vector, vectorSteps, 0, ROWS);

            int[] acc = new int[width];
            float[] y = new float[width];
            byte[] expected = new byte[width];
            for (int r = 0; r < ROWS; r++) {
                MemorySegment.copy(sums, ValueLayout.JAVA_INT, (long) r * width * 4, acc, 0, width);
                Int8Linear.rescale(acc, width, steps[r], scales, bias, 0, y);
                RowKernels.gelu(y, width);
                float step = Int8Linear.quantiseRow(y, 0, width, expected);
                assertThat(vectorSteps[r]).isEqualTo(step);
                assertThat(vector.asSlice((long) r * width, width).toArray(ValueLayout.JAVA_BYTE))
                        .containsExactly(expected);
            }
        }
    }

    /**
     * Against Int8ShortPass's row loop that ends a linear layer: rescale, add the residual,
     * LayerNorm, quantise, one row at a time; with every row's residual and with every third row's
     * (CLS pooling's last layer), and without the quantised copy.
     */
    @ParameterizedTest
    @ValueSource(ints = {384, 37, 5})
    void rescalesAddsNormalisesAndQuantisesAsTheShortPassDoes(int width) {
        Random random = new Random(width + 2);
        float[] scales = new float[width];
        float[] bias = new float[width];
        float[] gamma = new float[width];
        float[] beta = new float[width];
        for (int n = 0; n < width; n++) {
            scales[n] = random.nextFloat() * 2e-6f;
            bias[n] = (float) random.nextGaussian();
            gamma[n] = 0.5f + random.nextFloat();
            beta[n] = (float) random.nextGaussian() * 0.1f;
        }
        float eps = 1e-12f;
        float[] steps = new float[ROWS];
        for (int r = 0; r < ROWS; r++) {
            steps[r] = random.nextFloat();
        }
        for (int stride : new int[] {1, 3}) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment sums = arena.allocate((long) ROWS * width * Integer.BYTES);
                for (long i = 0; i < (long) ROWS * width; i++) {
                    sums.setAtIndex(ValueLayout.JAVA_INT, i, random.nextInt(-4_000_000, 4_000_000));
                }
                MemorySegment original = arena.allocate(sums.byteSize()).copyFrom(sums);
                MemorySegment residual = floats(arena, ROWS * stride * width, random);
                MemorySegment quantised = arena.allocate((long) ROWS * width);
                float[] quantisedSteps = new float[ROWS];
                MemorySegment unquantised = arena.allocate(sums.byteSize()).copyFrom(sums);
                VectorRows.rescaleAddNormaliseRows(
                        sums,
                        steps,
                        scales,
                        bias,
                        residual,
                        stride,
                        gamma,
                        beta,
                        eps,
                        quantised,
                        quantisedSteps,
                        0,
                        ROWS);
                VectorRows.rescaleAddNormaliseRows(
                        unquantised,
                        steps,
                        scales,
                        bias,
                        residual,
                        stride,
                        gamma,
                        beta,
                        eps,
                        null,
                        null,
                        0,
                        ROWS);

                int[] acc = new int[width];
                float[] y = new float[width];
                float[] normalised = new float[width];
                byte[] expected = new byte[width];
                for (int r = 0; r < ROWS; r++) {
                    long bytes = (long) r * width * 4;
                    MemorySegment.copy(original, ValueLayout.JAVA_INT, bytes, acc, 0, width);
                    Int8Linear.rescale(acc, width, steps[r], scales, bias, 0, y);
                    for (int n = 0; n < width; n++) {
                        y[n] +=
                                residual.getAtIndex(
                                        ValueLayout.JAVA_FLOAT, (long) r * stride * width + n);
                    }
                    RowKernels.layerNorm(y, 0, gamma, beta, eps, normalised, 0);
                    float step = Int8Linear.quantiseRow(normalised, 0, width, expected);
                    float[] written =
                            sums.asSlice(bytes, width * 4L).toArray(ValueLayout.JAVA_FLOAT);
                    assertThat(written).containsExactly(normalised);
                    assertThat(
                                    unquantised
                                            .asSlice(bytes, width * 4L)
                                            .toArray(ValueLayout.JAVA_FLOAT))
                            .containsExactly(normalised);
                    assertThat(quantisedSteps[r]).isEqualTo(step);
                    assertThat(
                                    quantised
                                            .asSlice((long) r * width, width)
                                            .toArray(ValueLayout.JAVA_BYTE))
                            .containsExactly(expected);
                }
                // a normalised row has mean beta's and spread gamma's: spot-check the arithmetic
                float[] first = sums.asSlice(0, width * 4L).toArray(ValueLayout.JAVA_FLOAT);
                if (width >= 37) {
                    double mean = 0;
                    for (int n = 0; n < width; n++) {
                        mean += (first[n] - beta[n]) / gamma[n];
                    }
                    assertThat(mean / width).isCloseTo(0, offset(1e-4));
                }
            }
        }
    }

    @Test
    void geluLaneByLaneIsTheScalarGelu() {
        float[] x = new float[FloatVector.SPECIES_PREFERRED.length()];
        for (float start = -9f; start < 9f; start += 0.37f) {
            for (int i = 0; i < x.length; i++) {
                x[i] = start + i * 0.0113f;
            }
            float[] lanes =
                    VectorRows.gelu(FloatVector.fromArray(FloatVector.SPECIES_PREFERRED, x, 0))
                            .toArray();
            for (int i = 0; i < x.length; i++) {
                assertThat(lanes[i]).isEqualTo(RowKernels.gelu(x[i]));
            }
        }
        // GELU's known values: 0 at 0, x far right, 0 far left, and x·Φ(x) between
        assertThat(RowKernels.gelu(0f)).isZero();
        assertThat(RowKernels.gelu(6f)).isEqualTo(6f);
        assertThat(RowKernels.gelu(-6f)).isCloseTo(0f, offset(1e-6f));
        assertThat(RowKernels.gelu(1f)).isCloseTo(0.8413447f, offset(1e-6f));
    }

    private static MemorySegment floats(Arena arena, int n, Random random) {
        MemorySegment x = arena.allocate((long) n * Float.BYTES);
        for (int i = 0; i < n; i++) {
            x.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) random.nextGaussian() * 3f);
        }
        return x;
    }
}
