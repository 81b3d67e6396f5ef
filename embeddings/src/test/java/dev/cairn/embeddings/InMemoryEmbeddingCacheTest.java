package dev.cairn.embeddings;

class InMemoryEmbeddingCacheTest extends EmbeddingCacheContractTest {

    @Override
    protected EmbeddingCache newCache() {
        return EmbeddingCache.inMemory();
    }
}
