package dev.cairn.embeddings.bert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The encoder with attention in Java (the Vector API) against the same encoder on ATen's fused
 * attention, on float32 and int8 passes; the attention kernel alone is {@code
 * kernels.VectorAttentionTest}.
 */
class VectorAttentionEncoderTest {

    @Test
    void theFloat32EncoderGivesTheVectorsOfFusedAttention() {
        // float32 arithmetic around attention: only the rounding of the softmax sums differs
        Vectors java = Vectors.of(TestModels.bge());
        Vectors fused = withFusedAttention(TestModels.withoutInt8OrBf16());

        for (int i = 0; i < java.all().size(); i++) {
            assertThat(TestModels.maxDifference(java.all().get(i), fused.all().get(i)))
                    .as("text %d", i)
                    .isLessThan(1e-5f);
        }
    }

    @Test
    void theInt8EncoderIsAsCloseToFloat32AsWithFusedAttention() {
        // a last-bit difference before an activation is quantised may round it to the next
        // step, and such steps add up over twelve layers: the vectors differ a little, neither
        // further from float32 than the other
        Vectors java = Vectors.of(TestModels.bgeInt8());
        Vectors fused = withFusedAttention(TestModels.int8Everywhere());
        Vectors float32 = Vectors.of(TestModels.bge());

        for (int i = 0; i < java.all().size(); i++) {
            assertThat(TestModels.cosine(java.all().get(i), fused.all().get(i)))
                    .as("text %d", i)
                    .isGreaterThan(0.98);
        }
        assertThat(meanCosine(java.documents(), float32.documents()))
                .isCloseTo(meanCosine(fused.documents(), float32.documents()), offset(5e-4));
        assertThat(meanCosine(java.queries(), float32.queries()))
                .isCloseTo(meanCosine(fused.queries(), float32.queries()), offset(5e-4));
    }

    private static double meanCosine(List<float[]> a, List<float[]> b) {
        double sum = 0;
        for (int i = 0; i < a.size(); i++) {
            sum += TestModels.cosine(a.get(i), b.get(i));
        }
        return sum / a.size();
    }

    /**
     * One encoder's vectors of long documents in padded batches (tensor ops, float32 and int8
     * alike) and of queries (the Java pass where int8 is loaded).
     */
    private record Vectors(List<float[]> documents, List<float[]> queries) {
        static final List<String> TEXTS = VariedTexts.generate(40, 20261127L);

        static Vectors of(BertEncoder encoder) {
            List<String> documents = TEXTS.stream().map(d -> (d + " ").repeat(6)).toList();
            return new Vectors(
                    encoder.embedDocuments(documents),
                    TEXTS.stream().map(encoder::embedQuery).toList());
        }

        List<float[]> all() {
            return java.util.stream.Stream.concat(documents.stream(), queries.stream()).toList();
        }
    }

    /** {@link Vectors#of} the model loaded with {@code options} and ATen's fused attention. */
    private static Vectors withFusedAttention(EncoderOptions options) {
        assertThat(TestModels.bge().attention()).isEqualTo("Java (Vector API)");
        BertEncoder fused =
                BertEncoder.load(BertSpec.BGE_SMALL_EN_V15, options.withVectorAttention(false));
        try {
            assertThat(fused.attention()).isEqualTo("fused (ATen)");
            return Vectors.of(fused);
        } finally {
            fused.close();
        }
    }
}
