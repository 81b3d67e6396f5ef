package dev.cairn.retrieval;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.EmbeddingModels;

/** The real default embedding model, loaded once per test JVM and shared by test classes. */
public final class TestModel {

    private static volatile EmbeddingModel model;

    private TestModel() {}

    public static EmbeddingModel get() {
        EmbeddingModel m = model;
        if (m == null) {
            synchronized (TestModel.class) {
                if (model == null) {
                    model = EmbeddingModels.defaultModel();
                    Runtime.getRuntime()
                            .addShutdownHook(Thread.ofPlatform().unstarted(model::close));
                }
                m = model;
            }
        }
        return m;
    }
}
