package dev.cairn.server;

import dev.cairn.embeddings.EmbeddingCache;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.KnowledgeGraph;
import dev.cairn.store.Store;

/**
 * Cairn's library components opened over one data dir or database, as the server and the command
 * line's local mode both need them: the store, the embedding model and the knowledge base. Closes
 * them in reverse order. Thread-safe.
 */
public final class Cairn implements AutoCloseable {

    /** The content-addressed embedding cache in the data dir. */
    public static final String EMBEDDING_CACHE_FILE = "embedding-cache.db";

    private final Store store;
    private final EmbeddingCache cache;
    private final EmbeddingModel model;
    private final KnowledgeGraph graph;
    private final KnowledgeBase knowledge;

    private Cairn(
            Store store,
            EmbeddingCache cache,
            EmbeddingModel model,
            KnowledgeGraph graph,
            KnowledgeBase knowledge) {
        this.store = store;
        this.cache = cache;
        this.model = model;
        this.graph = graph;
        this.knowledge = knowledge;
    }

    /** Opens everything, closing what was opened when a later step fails. */
    public static Cairn open(ServerSettings settings) {
        Store store =
                settings.dbUrl().isBlank()
                        ? Store.embedded(settings.dataDir())
                        : Store.postgres(settings.dbUrl());
        EmbeddingCache cache = null;
        EmbeddingModel model = null;
        try {
            // Re-ingesting or re-evaluating never recomputes a vector it has seen.
            cache = EmbeddingCache.sqlite(settings.dataDir().resolve(EMBEDDING_CACHE_FILE));
            EmbeddingModel encoder = EmbeddingModels.defaultModel();
            model = EmbeddingModels.cached(encoder, cache);
            // The first forward pass pays for JIT and native warm-up; pay it before serving.
            encoder.embedQuery("warm up");
            // Rebuilt from the store, then kept current by the store's change log.
            KnowledgeGraph graph = KnowledgeGraph.open(store);
            KnowledgeBase knowledge =
                    KnowledgeBase.open(
                            store,
                            model,
                            settings.dataDir().resolve("lucene").resolve("documents"),
                            graph,
                            settings.retrieval());
            return new Cairn(store, cache, model, graph, knowledge);
        } catch (RuntimeException e) {
            if (model != null) {
                model.close();
            }
            if (cache != null) {
                cache.close();
            }
            store.close();
            throw e;
        }
    }

    public Store store() {
        return store;
    }

    public EmbeddingModel model() {
        return model;
    }

    /** The entity graph behind the graph signal and the entity endpoints. */
    public KnowledgeGraph graph() {
        return graph;
    }

    public KnowledgeBase knowledge() {
        return knowledge;
    }

    @Override
    public void close() {
        try {
            knowledge.close();
            graph.close();
        } finally {
            try {
                model.close();
            } finally {
                try {
                    cache.close();
                } finally {
                    store.close();
                }
            }
        }
    }
}
