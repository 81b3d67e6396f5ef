package dev.cairn.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link EmbeddingCache} must do; one subclass per implementation. */
abstract class EmbeddingCacheContractTest {

    protected EmbeddingCache cache;

    protected abstract EmbeddingCache newCache();

    @BeforeEach
    void open() {
        cache = newCache();
    }

    @AfterEach
    void close() {
        cache.close();
    }

    @Test
    void returnsStoredVectorsBitForBit() {
        EmbeddingCache.Key key = EmbeddingCache.Key.of("m/document", "some text");
        float[] v = {0.1f, -2.5e-8f, Float.MIN_VALUE, 1f};
        cache.putAll(Map.of(key, v));
        assertThat(cache.getAll(List.of(key)).get(key)).containsExactly(v);
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void leavesOutAbsentKeys() {
        EmbeddingCache.Key present = EmbeddingCache.Key.of("m", "a");
        cache.putAll(Map.of(present, new float[] {1f}));
        assertThat(cache.getAll(List.of(present, EmbeddingCache.Key.of("m", "b"))))
                .containsOnlyKeys(present);
    }

    @Test
    void separatesModels() {
        cache.putAll(Map.of(EmbeddingCache.Key.of("m1", "t"), new float[] {1f}));
        assertThat(cache.getAll(List.of(EmbeddingCache.Key.of("m2", "t")))).isEmpty();
    }

    @Test
    void replacesAVectorUnderTheSameKey() {
        EmbeddingCache.Key key = EmbeddingCache.Key.of("m", "t");
        cache.putAll(Map.of(key, new float[] {1f}));
        cache.putAll(Map.of(key, new float[] {2f}));
        assertThat(cache.getAll(List.of(key)).get(key)).containsExactly(2f);
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void keysByTheSha256OfTheText() {
        assertThat(EmbeddingCache.Key.of("m", "abc").sha256())
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void rejectsAMalformedDigest() {
        assertThatThrownBy(() -> new EmbeddingCache.Key("m", "xyz"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("illegal sha256: 'xyz'");
    }
}
