/**
 * The BERT sentence encoder: its spec, weights, tokenizer, forward pass and the scheduling of
 * passes on the inference thread. {@link dev.cairn.embeddings.bert.BertEncoder} is the model; the
 * API package creates it through {@code EmbeddingModels}, and callers only ever see it as an {@code
 * EmbeddingModel}.
 *
 * <p>Dependencies: this package uses {@code kernels} for every product, attention and row loop, and
 * of the API only the interfaces its models implement ({@code EmbeddingModel}, {@code
 * TokenCounter}), {@code Pooling} and the file helpers {@code CodeStamp} and {@code AtomicReplace}
 * ({@code PackageDependencyTest} checks this).
 *
 * <p>Borderline classes, and why they live here:
 *
 * <ul>
 *   <li>{@code Int8ShortPass}: a whole short forward pass (embeddings, layers, pooling) on the int8
 *       kernels, so it belongs with the model whose layers it walks, not with the products.
 *   <li>{@code LayerNorms}: the LayerNorm parameters of each layer, read out of {@code BertWeights}
 *       for the Java row loops; the loops themselves are kernels and take plain arrays.
 *   <li>{@code WeightCacheFile} and {@code WeightImage}: the converted weights and their file are
 *       the model's; where the directory is ({@code WeightCacheDir}) is the API's choice.
 *   <li>{@code ForwardPassScheduler}: which texts share a pass and when queries overtake documents
 *       is the model's scheduling; the one thread the passes run on is {@code
 *       kernels.TorchRuntime}'s, shared with every kernel.
 *   <li>{@code TorchScriptEmbeddingModel}: a user's traced model, loaded by DJL; it shares the
 *       tokenizer and runtime with the BERT encoder rather than the API's small interfaces.
 *   <li>{@code EncoderOptions}: what a load chooses among the kernels, so it sits with the one
 *       entry point, {@code BertEncoder.load(BertSpec, EncoderOptions)}.
 * </ul>
 */
package dev.cairn.embeddings.bert;
