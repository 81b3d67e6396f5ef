package dev.cairn.embeddings;

import dev.cairn.embeddings.bert.BertEncoder;
import dev.cairn.embeddings.bert.BertSpec;
import dev.cairn.embeddings.bert.EncoderOptions;
import dev.cairn.embeddings.bert.TorchScriptEmbeddingModel;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * Factories for {@link EmbeddingModel}s. Every model returned is thread-safe: load it once and
 * share it. Nothing is downloaded: weights and tokenizers come from jars on the classpath and the
 * PyTorch native library from {@code pytorch-native-cpu} (see {@code TorchRuntime}).
 */
public final class EmbeddingModels {

    private EmbeddingModels() {}

    /**
     * BAAI's {@code bge-small-en-v1.5} (384 dimensions, CLS pooling, queries prefixed with {@value
     * BertSpec#BGE_QUERY_PREFIX}): the default model.
     */
    public static EmbeddingModel bgeSmallEnV15() {
        return BertEncoder.load(BertSpec.BGE_SMALL_EN_V15, EncoderOptions.fromSystemProperties());
    }

    /**
     * As {@link #bgeSmallEnV15()}, keeping the converted weights in {@code dir}: the first load
     * writes {@code model-weights-<model id>-<build digest>.bin} there in the background, and later
     * loads read it instead of parsing and converting the ONNX file (seconds less per start). A
     * file made from another model file or build, or damaged, is ignored with one log line and
     * rewritten.
     */
    public static EmbeddingModel bgeSmallEnV15(Path dir) {
        return BertEncoder.load(
                BertSpec.BGE_SMALL_EN_V15,
                EncoderOptions.fromSystemProperties().withWeightsCacheDir(dir));
    }

    /**
     * Starts loading PyTorch's native library and binding its kernels in the background and returns
     * at once, so a model loaded later (seconds later, by a server that first reads its
     * configuration and opens its store) does not wait for them. Optional: a load starts them
     * itself.
     */
    public static void startRuntime() {
        BertEncoder.startNatives(EncoderOptions.fromSystemProperties());
    }

    /** sentence-transformers' {@code all-MiniLM-L6-v2} (384 dimensions, mean pooling). */
    public static EmbeddingModel allMiniLmL6V2() {
        return BertEncoder.load(BertSpec.ALL_MINILM_L6_V2, EncoderOptions.fromSystemProperties());
    }

    /**
     * A user's TorchScript sentence-embedding model from {@code directory} (one {@code *.pt} file
     * plus {@code tokenizer.json}), mean pooling, no query prefix, {@value
     * BertSpec#BERT_MAX_TOKENS} tokens.
     *
     * @throws IllegalArgumentException if the directory or one of its files is missing
     * @throws IllegalStateException if DJL cannot load the model
     */
    public static EmbeddingModel torchScript(Path directory) {
        return torchScript(directory, Pooling.MEAN, "");
    }

    /** As {@link #torchScript(Path)} with the model's pooling and query instruction. */
    public static EmbeddingModel torchScript(Path directory, Pooling pooling, String queryPrefix) {
        return TorchScriptEmbeddingModel.load(
                directory, pooling, queryPrefix, BertSpec.BERT_MAX_TOKENS);
    }

    /**
     * Wraps {@code model} so that every text already in {@code cache} (same model id, same SHA-256
     * of the text, same query/document kind) is returned from it without running the model. Closing
     * the result closes {@code model} but not {@code cache}.
     */
    public static EmbeddingModel cached(EmbeddingModel model, EmbeddingCache cache) {
        return new CachingEmbeddingModel(model, cache);
    }

    /**
     * A model that loads with {@code loader} on its first pass or token count and answers {@link
     * EmbeddingModel#id()} with {@code id} until then: for a command that opens Cairn's components
     * and may never embed. The model loaded must have that id.
     */
    public static OnDemandEmbeddingModel onDemand(String id, Supplier<EmbeddingModel> loader) {
        return new OnDemandEmbeddingModel(id, loader);
    }

    /** The id of {@link #defaultModel()}, known without loading it. */
    public static String defaultModelId() {
        return BertSpec.BGE_SMALL_EN_V15.id();
    }

    /**
     * The default model with its converted weights kept in the per-user cache directory, {@code
     * $XDG_CACHE_HOME/cairn} or {@code ~/.cache/cairn} ({@link #weightCacheDir()}): one file per
     * model and build of Cairn shared by every data dir and command, instead of one per data dir.
     * When the directory cannot be written, one warning says so and a directory under {@code
     * java.io.tmpdir} serves instead.
     */
    public static EmbeddingModel defaultModelWithSharedWeights() {
        return WeightCacheDir.user()
                .map(EmbeddingModels::defaultModel)
                .orElseGet(EmbeddingModels::defaultModel);
    }

    /**
     * Where {@link #defaultModelWithSharedWeights()} keeps the converted weights: the system
     * property {@code cairn.weights.cache-dir}, else {@code $XDG_CACHE_HOME/cairn}, else {@code
     * ~/.cache/cairn}.
     */
    public static Path weightCacheDir() {
        return WeightCacheDir.configured();
    }

    /**
     * The ids vectors of the built-in model {@code id} were stored under before the stored id left
     * out the arithmetic (issue 43): {@code id} plus {@code -int8} or {@code -bf16}, as int8 and
     * bfloat16 document passes named them. Migrations V017 (retrieval's chunks) and V018 (memory's
     * memories) rewrite them to {@code id}; an ingest key made with one of them still matches, so a
     * document ingested then is not embedded again. Empty for any other id.
     */
    public static List<String> formerIds(String id) {
        for (BertSpec spec : List.of(BertSpec.BGE_SMALL_EN_V15, BertSpec.ALL_MINILM_L6_V2)) {
            if (spec.id().equals(id)) {
                return List.of(id + BertEncoder.INT8_ID_SUFFIX, id + BertEncoder.BF16_ID_SUFFIX);
            }
        }
        return List.of();
    }

    /** The default model, {@link #bgeSmallEnV15()}. */
    public static EmbeddingModel defaultModel() {
        return bgeSmallEnV15();
    }

    /**
     * The default model with its converted weights kept in {@code dir}: {@link
     * #bgeSmallEnV15(Path)}.
     */
    public static EmbeddingModel defaultModel(Path dir) {
        return bgeSmallEnV15(dir);
    }
}
