package dev.cairn.embeddings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.embeddings.bert.TestModels;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CachingEmbeddingModelTest {

    @TempDir Path dir;

    @Test
    void returnsTheIdenticalVectorOnAHitWithoutRunningTheModel() {
        CountingEmbeddingModel counting = new CountingEmbeddingModel(TestModels.bge());
        try (EmbeddingCache cache = EmbeddingCache.inMemory();
                EmbeddingModel cached = EmbeddingModels.cached(counting, cache)) {
            float[] first = cached.embedDocuments(List.of("cached passage")).getFirst();
            float[] second = cached.embedDocuments(List.of("cached passage")).getFirst();
            assertThat(second).containsExactly(first);
            assertThat(counting.embedded()).isEqualTo(1);
        }
    }

    @Test
    void embedsOnlyTheMissesAndEachDistinctTextOnce() {
        CountingEmbeddingModel counting = new CountingEmbeddingModel(TestModels.bge());
        try (EmbeddingCache cache = EmbeddingCache.inMemory();
                EmbeddingModel cached = EmbeddingModels.cached(counting, cache)) {
            cached.embedDocuments(List.of("a", "b"));
            List<float[]> v = cached.embedDocuments(List.of("b", "c", "c", "a"));
            assertThat(counting.embedded()).isEqualTo(3);
            assertThat(v.get(1)).containsExactly(v.get(2));
            float[] alone = TestModels.bge().embedDocuments(List.of("b")).getFirst();
            assertThat(TestModels.cosine(v.get(0), alone)).isGreaterThan(0.99999);
        }
    }

    @Test
    void cachesQueriesApartFromDocuments() {
        CountingEmbeddingModel counting = new CountingEmbeddingModel(TestModels.bge());
        try (EmbeddingCache cache = EmbeddingCache.inMemory();
                EmbeddingModel cached = EmbeddingModels.cached(counting, cache)) {
            float[] document = cached.embedDocuments(List.of("same text")).getFirst();
            float[] query = cached.embedQuery("same text");
            assertThat(counting.embedded()).isEqualTo(2);
            assertThat(query).isNotEqualTo(document);
        }
    }

    @Test
    void survivesARestartThroughTheSqliteCache() {
        Path file = dir.resolve("embedding-cache.db");
        float[] before;
        try (EmbeddingCache cache = EmbeddingCache.sqlite(file)) {
            before =
                    EmbeddingModels.cached(new CountingEmbeddingModel(TestModels.bge()), cache)
                            .embedDocuments(List.of("durable"))
                            .getFirst();
        }
        CountingEmbeddingModel counting = new CountingEmbeddingModel(TestModels.bge());
        try (EmbeddingCache cache = EmbeddingCache.sqlite(file)) {
            float[] after =
                    EmbeddingModels.cached(counting, cache)
                            .embedDocuments(List.of("durable"))
                            .getFirst();
            assertThat(after).containsExactly(before);
            assertThat(counting.embedded()).isZero();
        }
    }
}
