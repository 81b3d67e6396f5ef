package dev.cairn.server;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.store.Store;

/**
 * Cairn's library components opened over one data dir or database, as the server and the command
 * line's local mode both need them: the store, the embedding model and the knowledge base. Closes
 * them in reverse order. Thread-safe.
 */
public final class Cairn implements AutoCloseable {

    private final Store store;
    private final EmbeddingModel model;
    private final KnowledgeBase knowledge;

    private Cairn(Store store, EmbeddingModel model, KnowledgeBase knowledge) {
        this.store = store;
        this.model = model;
        this.knowledge = knowledge;
    }

    /** Opens everything, closing what was opened when a later step fails. */
    public static Cairn open(ServerSettings settings) {
        Store store =
                settings.dbUrl().isBlank()
                        ? Store.embedded(settings.dataDir())
                        : Store.postgres(settings.dbUrl());
        EmbeddingModel model = null;
        try {
            model = EmbeddingModels.defaultModel();
            KnowledgeBase knowledge =
                    KnowledgeBase.open(
                            store,
                            model,
                            settings.dataDir().resolve("lucene").resolve("documents"),
                            settings.retrieval());
            return new Cairn(store, model, knowledge);
        } catch (RuntimeException e) {
            if (model != null) {
                model.close();
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

    public KnowledgeBase knowledge() {
        return knowledge;
    }

    @Override
    public void close() {
        try {
            knowledge.close();
        } finally {
            try {
                model.close();
            } finally {
                store.close();
            }
        }
    }
}
