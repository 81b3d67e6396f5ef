package dev.cairn.server;

import dev.cairn.embeddings.EmbeddingCache;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.embeddings.OnDemandEmbeddingModel;
import dev.cairn.graph.ProximityConfig;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.memory.service.MemoryServiceConfig;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.KnowledgeGraph;
import dev.cairn.retrieval.lexical.LexicalConfig;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.safety.WriteGuard;
import dev.cairn.store.Store;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.function.BooleanSupplier;

/**
 * Cairn's library components opened over one data dir or database, as the server and the command
 * line's local mode both need them: the store, the entity graph, the embedding model and the
 * knowledge base; and on demand the memory service over them ({@link #openMemory}), which only the
 * server and the commands about memories open. Closes them in reverse order. Thread-safe.
 */
public final class Cairn implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Cairn.class.getName());

    /** The entity graph's snapshot in the data dir (see {@link KnowledgeGraph}). */
    public static final String GRAPH_SNAPSHOT_FILE = "entity-graph.snapshot";

    /** The content-addressed embedding cache in the data dir. */
    public static final String EMBEDDING_CACHE_FILE = "embedding-cache.db";

    private final Path dataDir;
    private final Store store;
    private final EmbeddingCache cache;
    private final EmbeddingModel model;
    private final BooleanSupplier encoderLoaded;
    private final KnowledgeGraph graph;
    private final KnowledgeBase knowledge;

    private Cairn(
            Path dataDir,
            Store store,
            EmbeddingCache cache,
            EmbeddingModel model,
            BooleanSupplier encoderLoaded,
            KnowledgeGraph graph,
            KnowledgeBase knowledge) {
        this.dataDir = dataDir;
        this.store = store;
        this.cache = cache;
        this.model = model;
        this.encoderLoaded = encoderLoaded;
        this.graph = graph;
        this.knowledge = knowledge;
    }

    /** When the encoder's weights load (seconds and hundreds of megabytes). */
    public enum EncoderLoading {
        /** While the store opens, on a thread of its own: for whatever will embed. */
        AT_OPEN,
        /**
         * On the first embedding or token count: for the commands that mostly move stored rows (an
         * export, an import of vectors from the same model, forgetting a user), which may never
         * embed.
         */
        ON_FIRST_USE
    }

    /** Opens everything, closing what was opened when a later step fails. */
    public static Cairn open(ServerSettings settings) {
        return open(settings, new StartupPhases());
    }

    /** As {@link #open(ServerSettings)}, the encoder loading as {@code encoder} says. */
    public static Cairn open(ServerSettings settings, EncoderLoading encoder) {
        if (encoder == EncoderLoading.AT_OPEN) {
            return open(settings);
        }
        OnDemandEmbeddingModel onDemand =
                EmbeddingModels.onDemand(
                        EmbeddingModels.defaultModelId(), () -> loadEncoder(settings.dataDir()));
        return open(
                settings,
                new StartupPhases(),
                CompletableFuture.completedFuture(onDemand),
                onDemand::isLoaded);
    }

    /**
     * Opens everything, recording each step in {@code phases}. The model loads on its own thread
     * (native library, weights, a warm-up pass: seconds) while the store opens and the entity graph
     * loads; the knowledge base, which embeds with the model, opens once both are done. Closes what
     * was opened when a step fails.
     */
    public static Cairn open(ServerSettings settings, StartupPhases phases) {
        FutureTask<EmbeddingModel> loading =
                new FutureTask<>(() -> phases.time("model", () -> loadEncoder(settings.dataDir())));
        Thread.ofPlatform().name("cairn-start-model").start(loading);
        return open(settings, phases, loading, () -> true);
    }

    private static Cairn open(
            ServerSettings settings,
            StartupPhases phases,
            Future<EmbeddingModel> loading,
            BooleanSupplier encoderLoaded) {
        Store store = null;
        EmbeddingCache cache = null;
        KnowledgeGraph graph = null;
        EmbeddingModel model = null;
        try {
            store =
                    phases.time(
                            "store",
                            () ->
                                    settings.dbUrl().isBlank()
                                            ? Store.embedded(settings.dataDir())
                                            : Store.postgres(settings.dbUrl()));
            Store opened = store;
            // Loaded from its snapshot, then kept current by the store's change log.
            graph =
                    phases.time(
                            "graph",
                            () ->
                                    KnowledgeGraph.open(
                                            opened,
                                            ProximityConfig.defaults(),
                                            settings.dataDir().resolve(GRAPH_SNAPSHOT_FILE)));
            // Re-ingesting or re-evaluating never recomputes a vector it has seen.
            cache = EmbeddingCache.sqlite(settings.dataDir().resolve(EMBEDDING_CACHE_FILE));
            model = EmbeddingModels.cached(await(loading), cache);
            EmbeddingModel cached = model;
            KnowledgeGraph knowledgeGraph = graph;
            KnowledgeBase knowledge =
                    phases.time(
                            "knowledge",
                            () ->
                                    KnowledgeBase.open(
                                            opened,
                                            cached,
                                            settings.dataDir()
                                                    .resolve("lucene")
                                                    .resolve("documents"),
                                            knowledgeGraph,
                                            settings.retrieval()));
            return new Cairn(
                    settings.dataDir(), store, cache, model, encoderLoaded, graph, knowledge);
        } catch (RuntimeException e) {
            closeAll(e, loading, model, graph, cache, store);
            throw e;
        }
    }

    /**
     * The encoder with its first forward pass paid (JIT and native warm-up) before serving; its
     * converted weights are kept in the per-user cache ({@link
     * EmbeddingModels#defaultModelWithSharedWeights}), so a restart, another data dir or a command
     * line skips the ONNX parse and conversion. Files an earlier version kept in the data dir (147
     * MB each) are deleted.
     */
    private static EmbeddingModel loadEncoder(Path dataDir) {
        deleteDataDirWeights(dataDir);
        EmbeddingModel encoder = EmbeddingModels.defaultModelWithSharedWeights();
        try {
            encoder.embedQuery("warm up");
            return encoder;
        } catch (RuntimeException e) {
            encoder.close();
            throw e;
        }
    }

    /** Deletes the converted weights earlier versions kept in the data dir; best effort. */
    private static void deleteDataDirWeights(Path dataDir) {
        if (!Files.isDirectory(dataDir)) {
            return;
        }
        try (DirectoryStream<Path> old = Files.newDirectoryStream(dataDir, "model-weights-*.bin")) {
            for (Path file : old) {
                long megabytes = Files.size(file) >> 20;
                Files.delete(file);
                LOG.log(
                        Level.INFO,
                        "deleted {0} ({1} MB): the converted weights are kept in {2} now, once for"
                                + " every data dir",
                        file,
                        megabytes,
                        EmbeddingModels.weightCacheDir());
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "old model weights in {0} not deleted: {1}", dataDir, e);
        }
    }

    private static EmbeddingModel await(Future<EmbeddingModel> loading) {
        try {
            return loading.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException("the model did not load", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the model loaded", e);
        }
    }

    /** Closes what a failed open had opened, the model once its loading thread is done. */
    private static void closeAll(
            RuntimeException failure,
            Future<EmbeddingModel> loading,
            EmbeddingModel model,
            KnowledgeGraph graph,
            EmbeddingCache cache,
            Store store) {
        try {
            if (model != null) {
                model.close(); // closes the encoder it wraps
            } else {
                await(loading).close();
            }
        } catch (RuntimeException | Error e) {
            if (e != failure) {
                failure.addSuppressed(e);
            }
        }
        if (graph != null) {
            graph.close();
        }
        if (cache != null) {
            cache.close();
        }
        if (store != null) {
            store.close();
        }
    }

    public Store store() {
        return store;
    }

    public EmbeddingModel model() {
        return model;
    }

    /**
     * Whether the encoder's weights are loaded: always when opened {@link EncoderLoading#AT_OPEN},
     * only once something embedded or counted tokens when opened {@link
     * EncoderLoading#ON_FIRST_USE}.
     */
    public boolean encoderLoaded() {
        return encoderLoaded.getAsBoolean();
    }

    /** The entity graph behind the graph signal and the entity endpoints. */
    public KnowledgeGraph graph() {
        return graph;
    }

    public KnowledgeBase knowledge() {
        return knowledge;
    }

    /**
     * Opens the memory service over this store and model, its BM25 replica in {@code
     * <data-dir>/lucene/memories}. The caller closes it, before this.
     */
    public MemoryService openMemory(MemoryServiceConfig config) {
        LexicalIndex lexical =
                LexicalIndex.open(
                        dataDir.resolve("lucene").resolve("memories"), LexicalConfig.DEFAULTS);
        try {
            return MemoryService.create(
                    store, model, lexical, WriteGuard.standard(), config, Clock.systemUTC());
        } catch (RuntimeException e) {
            lexical.close();
            throw e;
        }
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
