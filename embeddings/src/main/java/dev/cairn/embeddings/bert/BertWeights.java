package dev.cairn.embeddings.bert;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.cairn.embeddings.kernels.BFloat16Linear;
import dev.cairn.embeddings.kernels.HalfPrecisionLinear;
import dev.cairn.embeddings.kernels.Int8Linear;
import dev.cairn.embeddings.kernels.TorchRuntime;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * BERT weights taken from the initializers of an ONNX export and laid out for {@link BertEncoder}.
 *
 * <p>HuggingFace's ONNX export keeps biases and LayerNorm parameters under their PyTorch names
 * ({@code encoder.layer.3.attention.self.query.bias}) but stores each linear weight, already
 * transposed to {@code [in, out]}, under a generated name ({@code onnx::MatMul_885}). We recover
 * the PyTorch name of each weight from the graph itself: a {@code MatMul} node reads the weight and
 * its output feeds exactly one {@code Add} whose other input is a named bias; the weight is that
 * bias's {@code .weight}. Nothing depends on initializer order.
 *
 * <p>Load-time fusions: query, key and value weights are concatenated into one {@code [3H, H]}
 * matrix (one GEMM instead of three), the query part pre-scaled by {@code 1/sqrt(headDim)} so
 * attention needs no separate scaling; token-type row 0 is folded into the position table.
 *
 * <p>Two steps: {@link #convert} does all of the above in pure Java into a {@link WeightImage}
 * (kept in the per-user cache by {@link WeightCacheFile}, so a restart skips the ONNX parse and
 * this conversion), {@link #upload} makes the encoder's arrays on that image's memory.
 *
 * <p>Immutable once built; the arrays belong to the manager passed to {@link #upload}.
 */
final class BertWeights {

    private static final Pattern LAYER = Pattern.compile("^encoder\\.layer\\.(\\d+)\\.");

    /**
     * One linear layer: {@code weight} is {@code [out, in]} as {@code torch.nn.Linear} expects it,
     * stored transposed (see {@link #weight}); {@code half} is the same weight and bias packed by
     * {@link HalfPrecisionLinear}, {@code bf16} copied by {@link BFloat16Linear} and {@code int8}
     * quantised by {@link Int8Linear}, each null when that path is not available.
     */
    record Dense(
            NDArray weight,
            NDArray bias,
            HalfPrecisionLinear.Packed half,
            BFloat16Linear.Packed bf16,
            Int8Linear.Packed int8) {}

    /** One transformer layer. */
    record Layer(
            Dense qkv,
            Dense attentionOut,
            NDArray attentionNormGamma,
            NDArray attentionNormBeta,
            Dense intermediate,
            Dense output,
            NDArray outputNormGamma,
            NDArray outputNormBeta) {}

    final NDArray wordEmbeddings;
    final NDArray positionPlusTypeEmbeddings;
    final NDArray embeddingNormGamma;
    final NDArray embeddingNormBeta;
    final List<Layer> layers;
    final int hidden;
    final int headDim;

    /** The fp16 linear the {@link Dense#half()} weights are packed for, or null. */
    final HalfPrecisionLinear half;

    /** The bfloat16 linear the {@link Dense#bf16()} weights are copied for, or null. */
    final BFloat16Linear bf16;

    /** The int8 linear the {@link Dense#int8()} weights are quantised for, or null. */
    final Int8Linear int8;

    private BertWeights(
            NDArray wordEmbeddings,
            NDArray positionPlusTypeEmbeddings,
            NDArray embeddingNormGamma,
            NDArray embeddingNormBeta,
            List<Layer> layers,
            int hidden,
            int headDim,
            HalfPrecisionLinear half,
            BFloat16Linear bf16,
            Int8Linear int8) {
        this.wordEmbeddings = wordEmbeddings;
        this.positionPlusTypeEmbeddings = positionPlusTypeEmbeddings;
        this.embeddingNormGamma = embeddingNormGamma;
        this.embeddingNormBeta = embeddingNormBeta;
        this.layers = layers;
        this.hidden = hidden;
        this.headDim = headDim;
        this.half = half;
        this.bf16 = bf16;
        this.int8 = int8;
    }

    /**
     * Reads the model's ONNX file from the class path: pure Java, no native library, so it can run
     * while PyTorch starts.
     */
    static OnnxGraph parse(BertSpec spec) {
        InputStream raw =
                BertWeights.class.getClassLoader().getResourceAsStream(spec.onnxResource());
        if (raw == null) {
            throw new IllegalStateException(
                    "weight file missing: classpath resource "
                            + spec.onnxResource()
                            + " not found (it ships in the dev.langchain4j embeddings jar for "
                            + spec.id()
                            + ")");
        }
        try (InputStream in = new BufferedInputStream(raw, 1 << 20)) {
            return OnnxGraph.parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + spec.onnxResource(), e);
        }
    }

    /** Maps each MatMul weight initializer to {@code <bias name minus .bias>.weight}. */
    static Map<String, OnnxGraph.Tensor> linearWeightsByName(OnnxGraph graph) {
        Map<String, OnnxGraph.Node> addByInput = new HashMap<>();
        for (OnnxGraph.Node node : graph.nodes()) {
            if (node.opType().equals("Add")) {
                for (String input : node.inputs()) {
                    addByInput.put(input, node);
                }
            }
        }
        Map<String, OnnxGraph.Tensor> named = new HashMap<>();
        for (OnnxGraph.Node node : graph.nodes()) {
            if (!node.opType().equals("MatMul") || node.outputs().isEmpty()) {
                continue;
            }
            OnnxGraph.Tensor weight = null;
            for (String input : node.inputs()) {
                weight = graph.tensor(input).orElse(weight);
            }
            OnnxGraph.Node add = addByInput.get(node.outputs().getFirst());
            if (weight == null || add == null) {
                continue;
            }
            for (String input : add.inputs()) {
                if (input.endsWith(".bias") && graph.tensor(input).isPresent()) {
                    String name = input.substring(0, input.length() - ".bias".length()) + ".weight";
                    OnnxGraph.Tensor previous = named.put(name, weight);
                    if (previous != null && previous != weight) {
                        throw new IllegalStateException("two MatMul weights feed " + input);
                    }
                }
            }
        }
        return named;
    }

    /** Name of a linear layer's weight in a converted image: {@code [in, out]} float32. */
    private static String weightOf(String layer) {
        return layer + ".weight";
    }

    private static String biasOf(String layer) {
        return layer + ".bias";
    }

    /** The layer's weight quantised by {@link Int8Linear}: {@code [in, out]} int8. */
    private static String int8WeightOf(String layer) {
        return layer + ".int8_weight";
    }

    /** The step of each output channel of {@link #int8WeightOf}: {@code [out]} float32. */
    private static String int8ScalesOf(String layer) {
        return layer + ".int8_scales";
    }

    private static final String WORD_EMBEDDINGS = "embeddings.word_embeddings.weight";
    private static final String POSITION_PLUS_TYPE = "embeddings.position_plus_type_embeddings";
    private static final String EMBEDDING_NORM = "embeddings.LayerNorm";

    /** Encoder layer {@code i}'s fused query, key and value projection, in the image. */
    private static String qkv(int i) {
        return "encoder.layer." + i + ".attention.self.qkv";
    }

    /**
     * Everything the encoder's tensors are made of, converted from the ONNX graph: a pure function
     * of the model file, the head count and whether the int8 packs are made, which is why it can be
     * kept on disk ({@link WeightCacheFile}) and read back instead of parsing and converting again.
     * Pure Java: it runs while PyTorch starts. The fp16 packs are not part of it: FBGEMM's packed
     * matrix is a native object, packed from the float32 weights at {@link #upload}.
     */
    static WeightImage convert(OnnxGraph graph, int heads, boolean int8) {
        Map<String, OnnxGraph.Tensor> linear = linearWeightsByName(graph);
        TreeSet<Integer> layerIds = layerIds(graph.tensors().keySet());
        OnnxGraph.Tensor word = graph.require(WORD_EMBEDDINGS);
        int hidden = (int) word.dims()[1];
        int headDim = headDim(hidden, heads);
        float scale = (float) (1.0 / Math.sqrt(headDim));

        WeightImage image = new WeightImage();
        try {
            image.putFloats(WORD_EMBEDDINGS, word.dims(), toArray(word.data()));
            OnnxGraph.Tensor position = graph.require("embeddings.position_embeddings.weight");
            OnnxGraph.Tensor type = graph.require("embeddings.token_type_embeddings.weight");
            float[] posType = toArray(position.data());
            FloatBuffer typeRow = type.data().duplicate();
            for (int i = 0; i < posType.length; i++) {
                posType[i] += typeRow.get(i % hidden);
            }
            image.putFloats(POSITION_PLUS_TYPE, position.dims(), posType);
            vector(image, graph, weightOf(EMBEDDING_NORM));
            vector(image, graph, biasOf(EMBEDDING_NORM));

            for (int i : layerIds) {
                String p = "encoder.layer." + i + ".";
                String self = p + "attention.self.";
                float[] q = inOut(require(linear, self + "query.weight"));
                float[] k = inOut(require(linear, self + "key.weight"));
                float[] v = inOut(require(linear, self + "value.weight"));
                float[] qb = toArray(graph.require(self + "query.bias").data());
                for (int j = 0; j < q.length; j++) {
                    q[j] *= scale;
                }
                for (int j = 0; j < qb.length; j++) {
                    qb[j] *= scale;
                }
                float[] qkvBias =
                        concat(
                                qb,
                                toArray(graph.require(self + "key.bias").data()),
                                toArray(graph.require(self + "value.bias").data()));
                dense(
                        image,
                        int8,
                        qkv(i),
                        concatColumns(hidden, q, k, v),
                        qkvBias,
                        hidden,
                        3 * hidden);
                linear(image, int8, graph, linear, p + "attention.output.dense");
                vector(image, graph, p + "attention.output.LayerNorm.weight");
                vector(image, graph, p + "attention.output.LayerNorm.bias");
                linear(image, int8, graph, linear, p + "intermediate.dense");
                linear(image, int8, graph, linear, p + "output.dense");
                vector(image, graph, p + "output.LayerNorm.weight");
                vector(image, graph, p + "output.LayerNorm.bias");
            }
        } catch (RuntimeException | Error e) {
            image.close();
            throw e;
        }
        return image;
    }

    /**
     * The encoder's tensors on the image's memory (see {@link WeightImage#array}), with the fp16
     * packs and bfloat16 copies made now when {@code half} and {@code bf16} are given and the int8
     * packs taken from the image when {@code int8} is given (the image must then have them). The
     * arrays belong to {@code manager}; the image must stay unchanged while they live.
     */
    static BertWeights upload(
            WeightImage image,
            int heads,
            NDManager manager,
            Optional<HalfPrecisionLinear> half,
            Optional<BFloat16Linear> bf16,
            Optional<Int8Linear> int8) {
        TreeSet<Integer> layerIds = layerIds(image.entries().keySet());
        long[] word = image.require(WORD_EMBEDDINGS).shape();
        int hidden = (int) word[1];
        List<Layer> layers = new ArrayList<>();
        // FBGEMM packs an fp16 weight in a scalar loop over every value (bge-small: 0.6 s on a
        // quiet core, 2 s on a loaded one), the longest step of a load from cached weights; the
        // layers are packed one per core at a time
        try (ExecutorService packers =
                Executors.newFixedThreadPool(
                        Math.min(layerIds.size(), TorchRuntime.threads()),
                        Thread.ofPlatform().name("cairn-model-pack-", 1).daemon(true).factory())) {
            List<Future<Layer>> packed = new ArrayList<>();
            for (int i : layerIds) {
                packed.add(packers.submit(() -> layer(manager, image, half, bf16, int8, i)));
            }
            for (Future<Layer> layer : packed) {
                layers.add(BertEncoder.await(layer, "making a layer's weights"));
            }
        }
        return new BertWeights(
                image.array(manager, WORD_EMBEDDINGS),
                image.array(manager, POSITION_PLUS_TYPE),
                image.array(manager, weightOf(EMBEDDING_NORM)),
                image.array(manager, biasOf(EMBEDDING_NORM)),
                layers,
                hidden,
                headDim(hidden, heads),
                half.orElse(null),
                bf16.orElse(null),
                int8.orElse(null));
    }

    private static Layer layer(
            NDManager manager,
            WeightImage image,
            Optional<HalfPrecisionLinear> half,
            Optional<BFloat16Linear> bf16,
            Optional<Int8Linear> int8,
            int i) {
        String p = "encoder.layer." + i + ".";
        return new Layer(
                dense(manager, image, half, bf16, int8, qkv(i)),
                dense(manager, image, half, bf16, int8, p + "attention.output.dense"),
                image.array(manager, p + "attention.output.LayerNorm.weight"),
                image.array(manager, p + "attention.output.LayerNorm.bias"),
                dense(manager, image, half, bf16, int8, p + "intermediate.dense"),
                dense(manager, image, half, bf16, int8, p + "output.dense"),
                image.array(manager, p + "output.LayerNorm.weight"),
                image.array(manager, p + "output.LayerNorm.bias"));
    }

    /** Whether {@code image} carries the int8 packs ({@link #convert} with {@code int8}). */
    static boolean hasInt8(WeightImage image) {
        return image.contains(int8WeightOf(qkv(0)));
    }

    private static TreeSet<Integer> layerIds(Iterable<String> names) {
        TreeSet<Integer> layerIds = new TreeSet<>();
        for (String name : names) {
            Matcher m = LAYER.matcher(name);
            if (m.find()) {
                layerIds.add(Integer.parseInt(m.group(1)));
            }
        }
        if (layerIds.isEmpty() || layerIds.first() != 0 || layerIds.last() != layerIds.size() - 1) {
            throw new IllegalStateException("not a BERT export: encoder layers " + layerIds);
        }
        return layerIds;
    }

    private static int headDim(int hidden, int heads) {
        if (hidden % heads != 0) {
            throw new IllegalStateException(
                    "hidden size " + hidden + " is not divisible by " + heads + " heads");
        }
        return hidden / heads;
    }

    /** The longest input the image's position table covers. */
    static int maxPositions(WeightImage image) {
        return (int) image.require(POSITION_PLUS_TYPE).shape()[0];
    }

    int maxPositions() {
        return (int) positionPlusTypeEmbeddings.getShape().get(0);
    }

    private static OnnxGraph.Tensor require(Map<String, OnnxGraph.Tensor> linear, String name) {
        OnnxGraph.Tensor t = linear.get(name);
        if (t == null) {
            throw new IllegalStateException("ONNX graph has no MatMul feeding the bias of " + name);
        }
        return t;
    }

    private static void linear(
            WeightImage image,
            boolean int8,
            OnnxGraph graph,
            Map<String, OnnxGraph.Tensor> linear,
            String layer) {
        OnnxGraph.Tensor t = require(linear, weightOf(layer));
        dense(
                image,
                int8,
                layer,
                inOut(t),
                toArray(graph.require(biasOf(layer)).data()),
                (int) t.dims()[0],
                (int) t.dims()[1]);
    }

    /** A linear layer's {@code [in, out]} weight, bias and, with {@code int8}, its int8 pack. */
    private static void dense(
            WeightImage image,
            boolean int8,
            String layer,
            float[] inOut,
            float[] bias,
            int in,
            int out) {
        image.putFloats(weightOf(layer), new long[] {in, out}, inOut);
        image.putFloats(biasOf(layer), new long[] {out}, bias);
        if (int8) {
            Int8Linear.Quantised q = Int8Linear.quantise(inOut, in, out);
            image.putBytes(int8WeightOf(layer), new long[] {in, out}, q.weight());
            image.putFloats(int8ScalesOf(layer), new long[] {out}, q.scales());
        }
    }

    private static Dense dense(
            NDManager manager,
            WeightImage image,
            Optional<HalfPrecisionLinear> half,
            Optional<BFloat16Linear> bf16,
            Optional<Int8Linear> int8,
            String layer) {
        NDArray weight = weight(manager, image, weightOf(layer));
        NDArray bias = image.array(manager, biasOf(layer));
        return new Dense(
                weight,
                bias,
                half.map(h -> h.pack(weight, bias)).orElse(null),
                bf16.map(b -> b.pack(weight, bias)).orElse(null),
                int8.map(
                                q ->
                                        q.pack(
                                                image.array(manager, int8WeightOf(layer)),
                                                image.floats(int8ScalesOf(layer)),
                                                image.floats(biasOf(layer))))
                        .orElse(null));
    }

    /**
     * A {@code [out, in]} weight as {@code torch.nn.Linear} expects it, stored transposed: the
     * array is a view of the contiguous {@code [in, out]} matrix in the image. {@code linear}
     * multiplies by the weight's transpose, which is then the contiguous matrix itself, and MKL's
     * GEMM on that layout measured about 30% faster for short inputs (a 21-token query: 318 µs
     * instead of 458 µs for the 1152 x 384 QKV product, weights cold in cache as in a real forward
     * pass).
     */
    private static NDArray weight(NDManager manager, WeightImage image, String name) {
        return image.array(manager, name).transpose();
    }

    private static void vector(WeightImage image, OnnxGraph graph, String name) {
        OnnxGraph.Tensor t = graph.require(name);
        image.putFloats(name, t.dims(), toArray(t.data()));
    }

    /** An ONNX MatMul weight, {@code [in, out]} row-major, as it is stored. */
    private static float[] inOut(OnnxGraph.Tensor t) {
        if (t.dims().length != 2) {
            throw new IllegalStateException("weight " + t.name() + " is not 2-D");
        }
        return toArray(t.data());
    }

    /** Row-major {@code [rows, w]} matrices side by side: {@code [rows, w * parts.length]}. */
    private static float[] concatColumns(int w, float[]... parts) {
        int rows = parts[0].length / w;
        float[] out = new float[rows * w * parts.length];
        for (int r = 0; r < rows; r++) {
            for (int p = 0; p < parts.length; p++) {
                System.arraycopy(parts[p], r * w, out, (r * parts.length + p) * w, w);
            }
        }
        return out;
    }

    private static float[] toArray(FloatBuffer data) {
        FloatBuffer d = data.duplicate();
        float[] a = new float[d.remaining()];
        d.get(a);
        return a;
    }

    private static float[] concat(float[]... parts) {
        int n = 0;
        for (float[] p : parts) {
            n += p.length;
        }
        float[] out = new float[n];
        int at = 0;
        for (float[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
