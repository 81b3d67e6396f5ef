package dev.cairn.embeddings;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteEmbeddingCacheTest extends EmbeddingCacheContractTest {

    @TempDir Path dir;

    @Override
    protected EmbeddingCache newCache() {
        return EmbeddingCache.sqlite(dir.resolve("data/embedding-cache.db"));
    }

    @Test
    void keepsVectorsAcrossReopening() {
        EmbeddingCache.Key key = EmbeddingCache.Key.of("m", "persisted");
        cache.putAll(Map.of(key, new float[] {3f, 4f}));
        cache.close();
        cache = newCache();
        assertThat(cache.getAll(List.of(key)).get(key)).containsExactly(3f, 4f);
    }
}
