package dev.cairn.embeddings.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Fused attention against the same arithmetic in separate DJL ops. */
class FusedAttentionTest {

    private static final Shape SHAPE = new Shape(3, 4, 7, 8);

    private static FusedAttention fused;
    private static NDManager manager;

    @BeforeAll
    static void load() {
        fused = FusedAttention.supported().orElseThrow();
        manager = TorchRuntime.engine().newBaseManager();
        manager.getEngine().setRandomSeed(20261122);
    }

    @AfterAll
    static void close() {
        manager.close();
    }

    @Test
    void matchesSeparateOpsWithoutMask() {
        NDArray q = manager.randomNormal(SHAPE);
        NDArray k = manager.randomNormal(SHAPE);
        NDArray v = manager.randomNormal(SHAPE);

        NDArray expected = reference(q, k, v, null, 0.25);
        NDArray actual = fused.apply(q, k, v, null, 0.25);

        assertThat(actual.getShape()).isEqualTo(SHAPE);
        assertThat(maxDifference(actual, expected)).isLessThan(1e-5f);
    }

    @Test
    void maskedKeysGetNoWeight() {
        NDArray q = manager.randomNormal(SHAPE);
        NDArray k = manager.randomNormal(SHAPE);
        NDArray v = manager.randomNormal(SHAPE);
        // the second sample is padded after 4 tokens: keys 4..6 must not count
        NDArray mask = manager.zeros(new Shape(3, 1, 1, 7));
        mask.set(new NDIndex("1, :, :, 4:"), -1e9f);

        NDArray actual = fused.apply(q, k, v, mask, 1.0);

        assertThat(maxDifference(actual, reference(q, k, v, mask, 1.0))).isLessThan(1e-5f);
        // changing a masked key's value leaves the output unchanged
        NDArray v2 = v.duplicate();
        v2.set(new NDIndex("1, :, 5, :"), 100f);
        assertThat(maxDifference(fused.apply(q, k, v2, mask, 1.0), actual)).isLessThan(1e-6f);
    }

    @Test
    void viewsWithContiguousLastDimensionAreAccepted() {
        // the encoder passes slices of a transposed [3, b, heads, t, d] tensor
        NDArray qkv = manager.randomNormal(new Shape(3, 7, 3, 4, 8)).transpose(1, 0, 3, 2, 4);
        NDArray q = qkv.get(0);
        NDArray k = qkv.get(1);
        NDArray v = qkv.get(2);

        assertThat(maxDifference(fused.apply(q, k, v, null, 0.5), reference(q, k, v, null, 0.5)))
                .isLessThan(1e-5f);
    }

    @Test
    void oneQueryRowAttendsOverAllKeys() {
        NDArray q = manager.randomNormal(SHAPE);
        NDArray k = manager.randomNormal(SHAPE);
        NDArray v = manager.randomNormal(SHAPE);
        NDArray mask = manager.zeros(new Shape(3, 1, 1, 7));
        mask.set(new NDIndex("2, :, :, 5:"), -1e9f);
        NDArray first = q.get(":, :, 0:1, :");

        NDArray actual = fused.apply(first, k, v, mask, 0.5);

        assertThat(actual.getShape()).isEqualTo(new Shape(3, 4, 1, 8));
        NDArray full = reference(q, k, v, mask, 0.5).get(":, :, 0:1, :");
        assertThat(maxDifference(actual, full)).isLessThan(1e-5f);
    }

    @Test
    void rejectsWhatWouldFailInsideLibtorch() {
        NDArray q = manager.randomNormal(SHAPE);
        NDArray k = manager.randomNormal(new Shape(3, 4, 6, 8));
        assertThatThrownBy(() -> fused.apply(q, k, q, null, 1.0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be [b, heads, tq, d]");
        NDArray narrow = manager.randomNormal(new Shape(3, 4, 7, 4));
        assertThatThrownBy(() -> fused.apply(q, narrow, narrow, null, 1.0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be [b, heads, tq, d]");
        NDArray badMask = manager.zeros(new Shape(3, 7));
        assertThatThrownBy(() -> fused.apply(q, q, q, badMask, 1.0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("illegal attention mask");
        NDArray doubles = q.toType(DataType.FLOAT64, true);
        assertThatThrownBy(() -> fused.apply(doubles, doubles, doubles, null, 1.0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be a float32 tensor");
        assertThatThrownBy(() -> fused.apply(q, q, q, null, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scale");
    }

    private static NDArray reference(NDArray q, NDArray k, NDArray v, NDArray mask, double scale) {
        NDArray logits = q.matMul(k.transpose(0, 1, 3, 2)).mul((float) scale);
        if (mask != null) {
            logits = logits.add(mask);
        }
        return logits.softmax(-1).matMul(v);
    }

    private static float maxDifference(NDArray a, NDArray b) {
        return a.sub(b).abs().max().getFloat();
    }
}
