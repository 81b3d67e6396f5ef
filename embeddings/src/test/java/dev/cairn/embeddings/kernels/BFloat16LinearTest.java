package dev.cairn.embeddings.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.core.Linear;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bfloat16 linear on its own, against float32's {@code addmm}. The encoder's bfloat16 passes
 * against float32 are {@code bert.BFloat16ParityTest}. On CPUs without AMX or AVX-512 BF16 there is
 * no bfloat16 path and these tests are skipped with one line saying so.
 */
class BFloat16LinearTest {

    private static final long SEED = 20261126L;

    @BeforeAll
    static void requireBf16() {
        if (System.getProperty("os.arch").equals("amd64")
                && NativeAten.cpuFlags().contains("amx_bf16")) {
            assertThat(BFloat16Linear.supported())
                    .as("bfloat16 linear on this AMX CPU")
                    .isPresent();
        }
        assumeTrue(
                BFloat16Linear.supported().isPresent(),
                "bfloat16 linear skipped: this CPU has neither AMX (amx_bf16) nor AVX-512 BF16;"
                        + " document passes run int8 or float32 instead");
    }

    @Test
    void aLinearLayerIsWithinBf16RoundingOfFloat32() {
        BFloat16Linear bf16 = BFloat16Linear.supported().orElseThrow();
        try (NDManager manager = TorchRuntime.engine().newBaseManager()) {
            manager.getEngine().setRandomSeed((int) SEED);
            NDArray weight = manager.randomNormal(0, 0.05f, new Shape(384, 1536), DataType.FLOAT32);
            NDArray bias = manager.randomNormal(0, 0.05f, new Shape(1536), DataType.FLOAT32);
            NDArray input = manager.randomNormal(0, 1, new Shape(37, 384), DataType.FLOAT32);
            // the encoder's weights are [out, in] views of [in, out] matrices: the same here
            NDArray view = weight.transpose();
            float[] expected = Linear.linear(input, view, bias).singletonOrThrow().toFloatArray();
            float[] actual = bf16.apply(input, bf16.pack(view, bias)).toFloatArray();
            double largest = 0;
            double worst = 0;
            for (int i = 0; i < expected.length; i++) {
                largest = Math.max(largest, Math.abs(expected[i]));
                worst = Math.max(worst, Math.abs(expected[i] - actual[i]));
            }
            // two roundings to 8-bit mantissas (2^-9 each) over 384 terms of random sign
            assertThat(worst / largest).isGreaterThan(0).isLessThan(0.01);
        }
    }

    @Test
    void bindsOnlyWhereBf16HardwareIs() {
        Set<String> flags = NativeAten.cpuFlags();
        assertThat(BFloat16Linear.supported().isPresent())
                .isEqualTo(flags.contains("amx_bf16") || flags.contains("avx512_bf16"));
    }
}
