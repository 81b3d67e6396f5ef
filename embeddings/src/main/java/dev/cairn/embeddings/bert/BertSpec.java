package dev.cairn.embeddings.bert;

import dev.cairn.embeddings.Pooling;

/**
 * What the ONNX initializers do not say about a BERT sentence encoder: where its files are, its
 * head count, pooling, query instruction and input limit.
 *
 * @param id stable model identifier, part of every cache key
 * @param onnxResource classpath resource of the float32 ONNX export
 * @param tokenizerResource classpath resource of the HuggingFace {@code tokenizer.json}
 * @param heads attention heads per layer
 * @param pooling how token vectors become the sentence vector
 * @param queryPrefix prepended to queries (not documents); may be empty
 * @param maxTokens longest input including {@code [CLS]} and {@code [SEP]}
 * @param layerNormEpsilon epsilon of every LayerNorm
 */
public record BertSpec(
        String id,
        String onnxResource,
        String tokenizerResource,
        int heads,
        Pooling pooling,
        String queryPrefix,
        int maxTokens,
        float layerNormEpsilon) {

    /** BERT's LayerNorm epsilon. */
    static final float BERT_LAYER_NORM_EPSILON = 1e-12f;

    /** The position-embedding table size of BERT-base-like models. */
    public static final int BERT_MAX_TOKENS = 512;

    /** BGE's retrieval instruction for queries (model card of BAAI/bge-small-en-v1.5). */
    static final String BGE_QUERY_PREFIX =
            "Represent this sentence for searching relevant passages: ";

    public static final BertSpec BGE_SMALL_EN_V15 =
            new BertSpec(
                    "bge-small-en-v1.5",
                    "bge-small-en-v1.5.onnx",
                    "bge-small-en-v1.5-tokenizer.json",
                    12,
                    Pooling.CLS,
                    BGE_QUERY_PREFIX,
                    BERT_MAX_TOKENS,
                    BERT_LAYER_NORM_EPSILON);

    public static final BertSpec ALL_MINILM_L6_V2 =
            new BertSpec(
                    "all-MiniLM-L6-v2",
                    "all-minilm-l6-v2.onnx",
                    "all-minilm-l6-v2-tokenizer.json",
                    12,
                    Pooling.MEAN,
                    "",
                    BERT_MAX_TOKENS,
                    BERT_LAYER_NORM_EPSILON);

    public BertSpec {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("illegal id: '" + id + "', must not be blank");
        }
        if (onnxResource == null || tokenizerResource == null || pooling == null) {
            throw new IllegalArgumentException("onnxResource, tokenizerResource, pooling required");
        }
        if (heads < 1) {
            throw new IllegalArgumentException("illegal heads: " + heads + ", must be >= 1");
        }
        if (queryPrefix == null) {
            throw new IllegalArgumentException("illegal queryPrefix: null, use \"\" for none");
        }
        if (maxTokens < 2) {
            throw new IllegalArgumentException(
                    "illegal maxTokens: " + maxTokens + ", must be >= 2");
        }
        if (!(layerNormEpsilon > 0)) {
            throw new IllegalArgumentException(
                    "illegal layerNormEpsilon: " + layerNormEpsilon + ", must be > 0");
        }
    }
}
