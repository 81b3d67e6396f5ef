package dev.cairn.embeddings;

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
        return BertEncoder.load(BertSpec.BGE_SMALL_EN_V15);
    }

    /** sentence-transformers' {@code all-MiniLM-L6-v2} (384 dimensions, mean pooling). */
    public static EmbeddingModel allMiniLmL6V2() {
        return BertEncoder.load(BertSpec.ALL_MINILM_L6_V2);
    }

    /** The default model, {@link #bgeSmallEnV15()}. */
    public static EmbeddingModel defaultModel() {
        return bgeSmallEnV15();
    }
}
