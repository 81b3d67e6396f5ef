/**
 * Text to L2-normalised vectors, and exact token counting, for Cairn.
 *
 * <p>Entry points: {@link dev.cairn.embeddings.EmbeddingModels} ({@code bgeSmallEnV15()}, the
 * default; {@code allMiniLmL6V2()}; {@code torchScript(Path)} for a user's model; {@code
 * cached(model, cache)}), {@link dev.cairn.embeddings.EmbeddingModel}, {@link
 * dev.cairn.embeddings.TokenCounter} and {@link dev.cairn.embeddings.EmbeddingCache}.
 *
 * <p>The two built-in models are BERT encoders whose forward pass is written here as DJL NDArray
 * operations on the PyTorch engine: embeddings (word + position + token type) and LayerNorm; per
 * layer {@code x = LN(x + Attn(x))}, {@code x = LN(x + W2·gelu(W1·x))} with {@code Attn(x) =
 * Wo·softmax(QKᵀ/√d + mask)·V} (Vaswani et al., 2017; Devlin et al., 2019); then CLS or mean
 * pooling and L2 normalisation. Weights are the float32 initializers of the ONNX exports shipped in
 * the {@code dev.langchain4j} model jars, decoded from protobuf by hand; tokenisation is the
 * HuggingFace {@code tokenizer.json} from the same jar, truncated at 512 tokens. Given a data dir
 * ({@code EmbeddingModels.bgeSmallEnV15(dir)}), the converted weights are kept there and read back
 * at the next load instead of decoding and converting the ONNX file again.
 *
 * <p>Packages: this one is the API callers use (the model and token-counter interfaces, the
 * factories, the caches, and the file helpers {@code CodeStamp} and {@code AtomicReplace} that
 * other modules use); {@code dev.cairn.embeddings.bert} is the BERT model (spec, weights,
 * tokenizer, forward pass, scheduling); {@code dev.cairn.embeddings.kernels} is the arithmetic
 * (linear layers in each precision, attention, row loops, native bindings). The API creates the
 * model, the model uses the kernels, the kernels depend on neither ({@code PackageDependencyTest}).
 * {@code Pooling} stays here because callers name it ({@code torchScript(dir, pooling, prefix)});
 * {@code WeightCacheDir} because choosing the per-user directory is the API's ({@link
 * dev.cairn.embeddings.EmbeddingModels#weightCacheDir()}).
 *
 * <p>Nothing downloads at run time: {@code ai.djl.offline=true} is set before the engine starts and
 * the PyTorch native library is unpacked by DJL from {@code pytorch-native-cpu} on the classpath.
 */
package dev.cairn.embeddings;
