package dev.cairn.embeddings.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.norm.LayerNorm;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The int8 linear on its own: the product is exact, a layer matches its formula in tensor ops whole
 * and in column slices, and the row loops that end a layer match theirs. The encoder's int8 passes
 * against float32 are {@code bert.Int8ParityTest}. On CPUs without VNNI there is no int8 path and
 * these tests are skipped with one line saying so.
 */
class Int8LinearTest {

    private static final long SEED = 20261126L;

    @BeforeAll
    static void requireInt8() {
        if (System.getProperty("os.arch").equals("amd64")
                && NativeAten.cpuFlags().contains("avx512_vnni")) {
            assertThat(Int8Linear.supported()).as("int8 linear on this VNNI CPU").isPresent();
        }
        assumeTrue(
                Int8Linear.supported().isPresent(),
                "int8 linear skipped: this CPU has no VNNI (avx512_vnni or avx_vnni); passes run"
                        + " bfloat16, fp16 or float32 instead");
    }

    @Test
    void int8ProductIsExact() {
        Int8Linear int8 = Int8Linear.supported().orElseThrow();
        try (var manager = TorchRuntime.engine().newBaseManager()) {
            java.util.Random random = new java.util.Random(SEED);
            int m = 37;
            int k = 384;
            int n = 96;
            byte[] a = new byte[m * k];
            byte[] b = new byte[k * n];
            for (int i = 0; i < a.length; i++) {
                a[i] = (byte) (random.nextInt(255) - 127);
            }
            for (int i = 0; i < b.length; i++) {
                b[i] = (byte) (random.nextInt(255) - 127);
            }
            int[] product =
                    int8.product(
                                    manager.create(a, new ai.djl.ndarray.types.Shape(m, k)),
                                    manager.create(b, new ai.djl.ndarray.types.Shape(k, n)))
                            .toIntArray();
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    int expected = 0;
                    for (int x = 0; x < k; x++) {
                        expected += a[i * k + x] * b[x * n + j];
                    }
                    assertThat(product[i * n + j]).as("[%d, %d]", i, j).isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void aLinearLayerMatchesItsFormulaInTensorOpsWholeAndInColumnSlices() {
        // the formula as separate DJL ops (how the layer ran before its quantisation and rescaling
        // became Java loops): q = round_half_even(x / s_x), y = (q·W_q) · s_n · s_x + b
        Int8Linear int8 = Int8Linear.supported().orElseThrow();
        try (var manager = TorchRuntime.engine().newBaseManager()) {
            java.util.Random random = new java.util.Random(SEED);
            int rows = 37;
            int in = 384;
            int out = 300; // two column slices of at least MIN_COLUMNS_PER_PART where 2 cores are
            float[] x = new float[rows * in];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) random.nextGaussian() * (1 + i % 7);
            }
            // row 0: step 1, so 2.5 and -3.5 are ties (even: 2, -4); row 1: all zero
            x[0] = 127f;
            x[1] = 2.5f;
            x[2] = -3.5f;
            for (int k = 3; k < in; k++) {
                x[k] = 1.25f;
            }
            java.util.Arrays.fill(x, in, 2 * in, 0f);
            float[] weight = new float[in * out];
            for (int i = 0; i < weight.length; i++) {
                weight[i] = (float) random.nextGaussian() * 0.05f;
            }
            float[] bias = new float[out];
            for (int i = 0; i < out; i++) {
                bias[i] = (float) random.nextGaussian();
            }
            Int8Linear.Quantised q = Int8Linear.quantise(weight, in, out);
            var shape = new ai.djl.ndarray.types.Shape(in, out);
            Int8Linear.Packed packed =
                    int8.pack(manager.create(q.weight(), shape), q.scales(), bias);
            var input = manager.create(x, new ai.djl.ndarray.types.Shape(rows, in));

            float[] y = int8.apply(input, packed).toFloatArray();

            int[] columns = {1};
            var step =
                    input.max(columns, true)
                            .maximum(input.min(columns, true).neg())
                            .maximum(Float.MIN_NORMAL)
                            .divi(Int8Linear.LEVELS);
            var quantised =
                    input.div(step).round().toType(ai.djl.ndarray.types.DataType.INT8, false);
            byte[] firstRow = java.util.Arrays.copyOf(quantised.toByteArray(), 3);
            assertThat(firstRow).containsExactly(127, 2, -4);
            float[] expected =
                    int8.product(quantised, packed.weight())
                            .mul(manager.create(packed.scales()))
                            .muli(step)
                            .addi(manager.create(packed.bias()))
                            .toFloatArray();
            assertThat(y).containsExactly(expected);
            // the short-pass route: rows quantised one at a time, the product cut by columns
            // (one slice per core) into int32 tensors made once, rescaled row by row
            assertThat(packed.columnSlices())
                    .hasSize(Math.min(2, SpinningHelpers.shared().threads()));
            var quantisedRows = new Int8Linear.QuantisedRows(manager, rows, in);
            byte[] scratch = new byte[in];
            for (int r = 0; r < rows; r++) {
                quantisedRows.set(r, x, r * in, scratch);
            }
            assertThat(quantisedRows.tensor.toByteArray()).containsExactly(quantised.toByteArray());
            var products = int8.new SliceProducts(quantisedRows, packed);
            products.run(packed);
            float[] sliced = new float[rows * out];
            float[] row = new float[out];
            int[] acc = new int[out];
            for (int r = 0; r < rows; r++) {
                products.rescaleRow(r, packed, row, acc);
                System.arraycopy(row, 0, sliced, r * out, out);
            }
            assertThat(sliced).containsExactly(expected);
        }
    }

    @Test
    void aLayersRowLoopsMatchTheirFormulaInTensorOps() {
        // Int8Linear.addNormalised and geluQuantised against the same layer end as separate ops:
        // LayerNorm(x·Wᵀ + b + residual) with DJL's LayerNorm, GELU with RowKernels' on the
        // product, each quantised again by Int8Linear.quantised
        Int8Linear int8 = Int8Linear.supported().orElseThrow();
        try (var manager = TorchRuntime.engine().newBaseManager()) {
            java.util.Random random = new java.util.Random(SEED + 1);
            int rows = 37;
            int width = 384;
            float[] x = new float[rows * width];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) random.nextGaussian() * (1 + i % 5);
            }
            float[] weight = new float[width * width];
            for (int i = 0; i < weight.length; i++) {
                weight[i] = (float) random.nextGaussian() * 0.05f;
            }
            float[] bias = new float[width];
            float[] gamma = new float[width];
            float[] beta = new float[width];
            for (int i = 0; i < width; i++) {
                bias[i] = (float) random.nextGaussian();
                gamma[i] = 0.5f + random.nextFloat();
                beta[i] = (float) random.nextGaussian() * 0.1f;
            }
            float eps = 1e-12f;
            Int8Linear.Quantised q = Int8Linear.quantise(weight, width, width);
            var shape = new Shape(width, width);
            Int8Linear.Packed packed =
                    int8.pack(manager.create(q.weight(), shape), q.scales(), bias);
            var input = manager.create(x, new Shape(rows, width));
            var linear = int8.apply(input, packed);

            for (int stride : new int[] {1, 3}) {
                float[] r = new float[rows * stride * width];
                for (int i = 0; i < r.length; i++) {
                    r[i] = (float) random.nextGaussian();
                }
                var residual = manager.create(r, new Shape(rows * stride, width));
                var next = new Int8Linear.QuantisedRows(manager, rows, width);
                var normalised =
                        int8.addNormalised(
                                int8.quantised(input),
                                packed,
                                residual,
                                stride,
                                gamma,
                                beta,
                                eps,
                                next);

                var added = linear.add(residual.get(new NDIndex("0:{}:{}", rows * stride, stride)));
                float[] expected =
                        LayerNorm.layerNorm(
                                        added,
                                        new Shape(width),
                                        manager.create(gamma),
                                        manager.create(beta),
                                        eps)
                                .singletonOrThrow()
                                .toFloatArray();
                float[] actual = normalised.toFloatArray();
                assertThat(normalised.getShape()).isEqualTo(new Shape(rows, width));
                for (int i = 0; i < expected.length; i++) {
                    assertThat(actual[i]).isCloseTo(expected[i], within(2e-5f));
                }
                try (var again = int8.quantised(normalised)) {
                    assertThat(next.tensor.toByteArray())
                            .containsExactly(again.tensor.toByteArray());
                    assertThat(next.steps).containsExactly(again.steps);
                }
            }

            float[] gelu = linear.toFloatArray();
            for (int i = 0; i < gelu.length; i++) {
                gelu[i] = RowKernels.gelu(gelu[i]);
            }
            try (var inner = int8.geluQuantised(int8.quantised(input), packed);
                    var expected = int8.quantised(manager.create(gelu, new Shape(rows, width)))) {
                assertThat(inner.tensor.toByteArray())
                        .containsExactly(expected.tensor.toByteArray());
                assertThat(inner.steps).containsExactly(expected.steps);
            }
            var wrongResidual = manager.create(new float[width], new Shape(1, width));
            assertThatThrownBy(
                            () ->
                                    int8.addNormalised(
                                            int8.quantised(input),
                                            packed,
                                            wrongResidual,
                                            1,
                                            gamma,
                                            beta,
                                            eps,
                                            null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("illegal residual [1, 384] for 37 rows of 384 every 1");
        }
    }

    @Test
    void bindsOnlyWhereVnniIs() {
        Optional<Int8Linear> int8 = Int8Linear.supported();
        assertThat(int8.isPresent())
                .isEqualTo(
                        NativeAten.cpuFlags().contains("avx512_vnni")
                                || NativeAten.cpuFlags().contains("avx_vnni"));
    }
}
