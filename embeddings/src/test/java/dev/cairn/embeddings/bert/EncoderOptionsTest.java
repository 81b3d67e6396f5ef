package dev.cairn.embeddings.bert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.embeddings.kernels.Int8Linear;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The options a load takes: the defaults, each {@code cairn.embeddings.*} property read as the
 * switches always read it, and the withers.
 */
class EncoderOptionsTest {

    private static EncoderOptions from(Map<String, String> properties) {
        return EncoderOptions.fromProperties(properties::get);
    }

    @Test
    void noPropertiesGiveTheDefaults() {
        EncoderOptions defaults = EncoderOptions.defaults();
        assertThat(from(Map.of())).isEqualTo(defaults);
        assertThat(defaults.batchSize()).isEqualTo(BertEncoder.DEFAULT_BATCH_SIZE).isEqualTo(32);
        assertThat(defaults.weightsCacheDir()).isEmpty();
        assertThat(defaults.int8()).isEqualTo(Int8Linear.defaultUse());
        assertThat(defaults.bf16()).isTrue();
        assertThat(defaults.halfWeights()).isTrue();
        assertThat(defaults.fusedAttention()).isTrue();
        assertThat(defaults.vectorAttention()).isTrue();
        assertThat(defaults.microBatching()).isTrue();
    }

    @Test
    void eachPropertyTurnsItsPathOff() {
        EncoderOptions off =
                from(
                        Map.of(
                                "cairn.embeddings.int8", "false",
                                "cairn.embeddings.bf16", "false",
                                "cairn.embeddings.half-weights", "false",
                                "cairn.embeddings.fused-attention", "false",
                                "cairn.embeddings.vector-attention", "false",
                                "cairn.embeddings.micro-batching", "false"));
        assertThat(off)
                .isEqualTo(
                        new EncoderOptions(
                                32,
                                Optional.empty(),
                                Int8Linear.Use.OFF,
                                false,
                                false,
                                false,
                                false,
                                false));
    }

    @Test
    void int8TakesTrueQueriesOrFalseInAnyCaseAndNothingElse() {
        assertThat(from(Map.of(EncoderOptions.INT8_PROPERTY, "true")).int8())
                .isEqualTo(Int8Linear.Use.ALL);
        assertThat(from(Map.of(EncoderOptions.INT8_PROPERTY, " Queries ")).int8())
                .isEqualTo(Int8Linear.Use.QUERIES);
        assertThat(from(Map.of(EncoderOptions.INT8_PROPERTY, "FALSE")).int8())
                .isEqualTo(Int8Linear.Use.OFF);
        assertThatThrownBy(() -> from(Map.of(EncoderOptions.INT8_PROPERTY, "yes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cairn.embeddings.int8 must be true, false or queries, not 'yes'");
    }

    @Test
    void booleanSwitchesKeepTheirOwnReadingOfOtherValues() {
        // bf16, fp16 weights and both attentions were Boolean.parseBoolean with default true:
        // anything but "true" turns them off; micro-batching was off only for exactly "false"
        EncoderOptions other =
                from(
                        Map.of(
                                EncoderOptions.BF16_PROPERTY, "no",
                                EncoderOptions.HALF_WEIGHTS_PROPERTY, "TRUE",
                                EncoderOptions.FUSED_ATTENTION_PROPERTY, "0",
                                EncoderOptions.VECTOR_ATTENTION_PROPERTY, "",
                                EncoderOptions.MICRO_BATCHING_PROPERTY, "FALSE"));
        assertThat(other.bf16()).isFalse();
        assertThat(other.halfWeights()).isTrue();
        assertThat(other.fusedAttention()).isFalse();
        assertThat(other.vectorAttention()).isFalse();
        assertThat(other.microBatching()).isTrue();
    }

    @Test
    void withersChangeOneChoice() {
        EncoderOptions defaults = EncoderOptions.defaults();
        Path dir = Path.of("/tmp/weights");
        assertThat(defaults.withBatchSize(8).batchSize()).isEqualTo(8);
        assertThat(defaults.withWeightsCacheDir(dir).weightsCacheDir()).contains(dir);
        assertThat(defaults.withInt8(Int8Linear.Use.QUERIES).int8())
                .isEqualTo(Int8Linear.Use.QUERIES);
        assertThat(defaults.withBf16(false).bf16()).isFalse();
        assertThat(defaults.withHalfWeights(false).halfWeights()).isFalse();
        assertThat(defaults.withFusedAttention(false).fusedAttention()).isFalse();
        assertThat(defaults.withVectorAttention(false).vectorAttention()).isFalse();
        assertThat(defaults.withMicroBatching(false).microBatching()).isFalse();
        assertThat(defaults.withBf16(false).withBf16(true)).isEqualTo(defaults);
    }

    @Test
    void rejectsABatchSizeBelowOne() {
        assertThatThrownBy(() -> EncoderOptions.defaults().withBatchSize(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("illegal batchSize: 0, must be >= 1");
    }
}
