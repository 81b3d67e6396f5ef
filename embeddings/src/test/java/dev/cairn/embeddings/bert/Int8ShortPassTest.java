package dev.cairn.embeddings.bert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cairn.embeddings.kernels.FusedAttention;
import dev.cairn.embeddings.kernels.Int8Linear;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link Int8ShortPass} against the same int8 pass as tensor ops ({@link Int8Linear#apply} between
 * DJL's layer norms, GELU and adds). Their arithmetic is the same up to float rounding in
 * LayerNorm, GELU and the sums, and int8 quantisation can turn a last-bit difference into one step
 * of one activation (a value on a rounding boundary), which later layers spread. So each text is
 * compared within what that allows, most texts must agree to float rounding, and both routes must
 * be equally close to float32 over many texts.
 */
class Int8ShortPassTest {

    private static final long SEED = 20261127L;

    @BeforeAll
    static void requireInt8() {
        assumeTrue(
                Int8Linear.supported().isPresent(),
                "int8 short passes skipped: this CPU has no VNNI (avx512_vnni or avx_vnni);"
                        + " short passes run on fp16 weights or float32 (BertEncoderTest)");
        assumeTrue(
                FusedAttention.supported().isPresent(),
                "int8 short passes skipped: this libtorch has no fused attention; int8 passes"
                        + " run as tensor ops on the whole product (Int8ParityTest)");
    }

    @Test
    void bgeVectorsMatchTheTensorOpPass() {
        assertSameAsTensorOps(TestModels.bgeInt8(), TestModels.bge(), 60, 0.995);
    }

    @Test
    void meanPooledMiniLmVectorsMatchTheTensorOpPass() {
        try (BertEncoder int8 =
                BertEncoder.load(BertSpec.ALL_MINILM_L6_V2, TestModels.int8Everywhere())) {
            assertSameAsTensorOps(int8, TestModels.miniLm(), 40, 0.99);
        }
    }

    @Test
    void aPaddedBatchGivesEachTextItsLoneVector() {
        BertEncoder encoder = TestModels.bgeInt8();
        List<String> texts =
                List.of(
                        "a short one",
                        "a somewhat longer text, with more words in it than the others have",
                        "one of middle length");
        long[][] ids = ids(encoder, texts);
        assertThat(ids[0].length).isLessThan(ids[1].length);

        float[][] batch = encoder.embedTokenIdsAsOnePass(ids, BertEncoder.Precision.INT8_SLICES);

        for (int j = 0; j < texts.size(); j++) {
            float[] alone =
                    encoder.embedTokenIdsAsOnePass(
                                    new long[][] {ids[j]}, BertEncoder.Precision.INT8_SLICES)[0];
            // padding is masked out of attention and every row is quantised on its own
            assertThat(TestModels.cosine(batch[j], alone)).as("text %d", j).isGreaterThan(0.99999);
        }
    }

    /**
     * Each of {@code count} varied texts run alone through both routes: cosine between them at
     * least {@code minCosine}, some equal to 1e-5 (no activation on a rounding boundary: the same
     * arithmetic), and the two routes' mean cosine to float32 within 0.0005. Measured on 2 cores
     * (Intel Xeon, AVX-512 VNNI): bge-small 13 of 60 equal, lowest cosine 0.99699, mean to float32
     * 0.998512 (Java) and 0.998537 (ops); all-MiniLM-L6-v2 17 of 40, 0.99510, 0.995096 and
     * 0.995026. A wrong row, residual or norm puts cosines far lower.
     */
    private static void assertSameAsTensorOps(
            BertEncoder int8, BertEncoder float32, int count, double minCosine) {
        List<String> texts = VariedTexts.generate(count, SEED);
        double javaToFloat = 0;
        double opsToFloat = 0;
        int equal = 0;
        double lowest = 1;
        for (int i = 0; i < texts.size(); i++) {
            long[][] one = ids(int8, List.of(texts.get(i)));
            float[] java = int8.embedTokenIdsAsOnePass(one, BertEncoder.Precision.INT8_SLICES)[0];
            float[] ops = int8.embedTokenIdsAsOnePass(one, BertEncoder.Precision.INT8)[0];
            float[] reference =
                    float32.embedTokenIdsAsOnePass(one, BertEncoder.Precision.FLOAT32)[0];
            double cosine = TestModels.cosine(java, ops);
            lowest = Math.min(lowest, cosine);
            assertThat(cosine).as("text %d: %.60s", i, texts.get(i)).isGreaterThan(minCosine);
            if (TestModels.maxDifference(java, ops) <= 1e-5f) {
                equal++;
            }
            javaToFloat += TestModels.cosine(java, reference);
            opsToFloat += TestModels.cosine(ops, reference);
        }
        System.out.printf(
                "%s: Java pass vs tensor ops over %d texts: %d equal to 1e-5, lowest cosine %.6f;"
                        + " mean cosine to float32 %.6f (Java) and %.6f (ops)%n",
                int8.exactId(), count, equal, lowest, javaToFloat / count, opsToFloat / count);
        assertThat(equal).as("texts equal to 1e-5").isGreaterThanOrEqualTo(count / 10);
        assertThat(javaToFloat / count).isCloseTo(opsToFloat / count, within(0.0005));
    }

    private static long[][] ids(BertEncoder encoder, List<String> texts) {
        return ((HfTokenizer) encoder.tokenCounter()).encodeForModel(texts);
    }
}
