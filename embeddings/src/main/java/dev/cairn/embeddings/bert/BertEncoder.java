package dev.cairn.embeddings.bert;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.ndarray.types.SparseFormat;
import ai.djl.nn.Activation;
import ai.djl.nn.core.Embedding;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.LayerNorm;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.Pooling;
import dev.cairn.embeddings.TokenCounter;
import dev.cairn.embeddings.kernels.BFloat16Linear;
import dev.cairn.embeddings.kernels.FusedAttention;
import dev.cairn.embeddings.kernels.HalfPrecisionLinear;
import dev.cairn.embeddings.kernels.Int8Linear;
import dev.cairn.embeddings.kernels.NativeAten;
import dev.cairn.embeddings.kernels.RowKernels;
import dev.cairn.embeddings.kernels.SpinningHelpers;
import dev.cairn.embeddings.kernels.TorchRuntime;
import dev.cairn.embeddings.kernels.VectorApi;
import dev.cairn.embeddings.kernels.VectorAttention;
import java.lang.System.Logger.Level;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A BERT sentence encoder (Devlin et al., 2019, "BERT: Pre-training of Deep Bidirectional
 * Transformers", arXiv:1810.04805) whose forward pass is written as DJL {@link NDArray} operations
 * on the PyTorch engine, with weights read from an ONNX export by {@link BertWeights}.
 *
 * <p>Per layer: {@code x = LN(x + Wo·softmax(QKᵀ/√d + mask)·V)}, {@code x = LN(x + W2·gelu(W1·x))},
 * GELU in its exact erf form as BERT. Then {@link Pooling} and L2 normalisation. Where int8 is on,
 * a short pass runs the same arithmetic in {@link Int8ShortPass} instead: int8 products and fused
 * attention between Java loops; a long int8 pass, where the Vector API is loaded, runs those row
 * loops between its products too ({@link #int8RowLoops}); ATen then only embeds, multiplies and
 * pools.
 *
 * <p>Throughput: texts are tokenised, sorted by token length and cut into batches of {@link
 * #DEFAULT_BATCH_SIZE} (fewer where that would exceed {@link #MAX_BATCH_TOKENS} or {@link
 * #MAX_PADDING_FRACTION}), each padded only to its own longest member (length bucketing); autograd
 * is off; Q, K and V are one GEMM; intermediates of each layer are freed at the end of that layer
 * ({@link NDScope}) and every batch lives in its own sub-manager, so nothing outlives a call.
 *
 * <p>Concurrency: forward passes run one at a time on the inference thread, scheduled by {@link
 * ForwardPassScheduler}: queries that queue behind a pass share the next one, queries overtake
 * document passes between layers, and document callers take turns slice by slice.
 *
 * <p>Thread-safe: weights are read-only and each call works in its own NDManager; one instance can
 * be shared by all threads.
 *
 * <p>Loading takes one {@link EncoderOptions}; the arithmetic is in {@code kernels}.
 *
 * <p>Why about 1,070 lines: the load (weights and natives in parallel, the weights cache), the
 * choice of path for each pass ({@link #precision}) and the forward pass it runs share the
 * encoder's weights and kernels; the kernels themselves and the short int8 pass live apart.
 */
public final class BertEncoder implements EmbeddingModel {

    /**
     * Texts per forward pass: large enough to keep GEMMs efficient, small enough to bucket well.
     */
    static final int DEFAULT_BATCH_SIZE = 32;

    /**
     * Most padded tokens in one forward pass (batch size times longest input). At 4,096 the widest
     * activation (the feed-forward layer's, 4,096 x 1,536 floats = 25 MB) stays below glibc's
     * largest mmap threshold (32 MB), so freed activations are reused from the heap; at 8,192 every
     * such tensor was a fresh mmap, paid in page faults and zeroing on every layer, and the GEMMs
     * ran on operands twice the cache. Measured on SciFact abstracts with bge-small: 8,192 tokens
     * 6.5-7.5 documents/s, 4,096 8.4-9.0, 2,048 8.2.
     */
    static final long MAX_BATCH_TOKENS = 4096;

    /**
     * Largest share of padding a batch may carry before it is cut: sorted inputs of very different
     * lengths are better run as two batches than one padded to the longest.
     */
    static final double MAX_PADDING_FRACTION = 0.2;

    /** Added to attention logits of padding positions; exp of it is 0 in float32. */
    static final float MASKED_LOGIT = -1e9f;

    /**
     * Most input rows (tokens of a batch) a pass runs on the half-precision weights where bfloat16
     * runs on AMX tiles and takes over above it (see {@link #shortPassMaxRows}): a short pass is
     * bound by reading the weights, which fp16 halves. Chosen when fp16 ran on one thread against
     * MKL's two-threaded float32 GEMM (2 cores, 384 x 1536 weights cold in cache; 21 rows: 265 vs
     * 400 µs; 32: 467 vs 549 µs; 64: 780 vs 658 µs); above it AMX's bfloat16 products are faster
     * still.
     */
    static final int HALF_WEIGHT_MAX_ROWS = 48;

    /**
     * The same bound where no AMX bfloat16 kernel takes over above {@link #HALF_WEIGHT_MAX_ROWS}:
     * the two-slice fp16 GEMM stays ahead of MKL's two-threaded float32 GEMM and, inside a pass, of
     * bfloat16 on AVX-512 BF16 alone, so a batch of concurrent queries keeps it. Measured on 2
     * cores: AMD EPYC Zen 3 (AVX2), the four linear layers of one encoder layer, fp16 vs float32:
     * 96 rows 2.19 vs 3.09 ms, 160 rows 3.81 vs 4.98 ms, 320 rows 9.73 vs 10.23 ms, 640 rows 20.7
     * vs 18.4 ms; AMD EPYC Zen 4 (AVX-512 BF16, no AMX), 4 concurrent callers: 97-114 queries/s
     * with this bound against 80-94 with bfloat16 above 48 rows (16 callers: level). Short int8
     * document passes use it too (see {@link #shortPassMaxRows}); int8 query passes have no bound.
     */
    static final int HALF_WEIGHT_MAX_ROWS_WITHOUT_AMX = 320;

    /**
     * Appended to a model's id, in its {@link EmbeddingModel#exactId() exact id}, when its document
     * vectors come from int8 GEMMs ({@link Int8Linear}): an embedding cache then never answers a
     * float32 request with them. Stored vectors record the model's id without it (their space is
     * the same). Until issue 43 the stored id carried it too, so stores written then hold it (see
     * {@code EmbeddingModels.formerIds}).
     */
    public static final String INT8_ID_SUFFIX = "-int8";

    /**
     * As {@link #INT8_ID_SUFFIX}, for document vectors from bfloat16 GEMMs ({@link
     * BFloat16Linear}).
     */
    public static final String BF16_ID_SUFFIX = "-bf16";

    /** Attention logits computed at once (1M floats = 4 MB): bounds memory at long inputs. */
    static final long ATTENTION_LOGITS_PER_SLICE = 1L << 20;

    private final BertSpec spec;
    private final NDManager manager;
    private final BertWeights weights;
    private final ForwardPassScheduler passes;

    /** How a forward pass computes its linear layers. */
    enum Precision {
        /** MKL's float32 GEMM. */
        FLOAT32,
        /** {@link HalfPrecisionLinear}: fp16 weights, float32 arithmetic, one slice per core. */
        HALF,
        /** {@link BFloat16Linear}: bfloat16 weights and inputs, float32 accumulation. */
        BF16,
        /** {@link Int8Linear}: int8 weights and activations, int32 accumulation. */
        INT8,
        /**
         * {@link Int8ShortPass}: the same products cut by output columns, one slice per core, and
         * the rest of the pass in Java loops.
         */
        INT8_SLICES
    }

    private final HfTokenizer tokenizer;
    private final int batchSize;
    private final int maxTokens;

    /** Attention in one flash-attention call, or empty for separate matmul and softmax ops. */
    private final Optional<FusedAttention> fusedAttention;

    /** Attention in Java where the Vector API is loaded (see {@link #vectorAttention}). */
    private final Optional<VectorAttention> vectorAttention;

    /** Short passes on the int8 weights, where they and fused attention are; else empty. */
    private final Optional<Int8ShortPass> int8ShortPass;

    /** Whether int8 runs every pass (documents included) rather than short query passes only. */
    private final boolean int8Documents;

    /** Each layer's LayerNorm parameters for the int8 row loops, or empty without int8 weights. */
    private final List<LayerNorms> norms;

    private final AtomicBoolean closed = new AtomicBoolean();

    /** The thread writing freshly converted weights to the cache, or null. */
    private volatile Thread saving;

    /** The memory the weight tensors are made on; freed after the tensors, at {@link #close}. */
    private final WeightImage image;

    private static final System.Logger LOG = System.getLogger(BertEncoder.class.getName());

    private BertEncoder(
            BertSpec spec,
            NDManager manager,
            WeightImage image,
            BertWeights weights,
            HfTokenizer tokenizer,
            EncoderOptions options,
            Optional<FusedAttention> fusedAttention,
            boolean int8Documents) {
        this.spec = spec;
        this.manager = manager;
        this.image = image;
        this.weights = weights;
        this.tokenizer = tokenizer;
        this.batchSize = options.batchSize();
        this.maxTokens = Math.min(spec.maxTokens(), weights.maxPositions());
        this.fusedAttention = fusedAttention;
        this.vectorAttention =
                options.vectorAttention()
                        ? vectorAttention(weights.hidden / weights.headDim, weights.headDim)
                        : Optional.empty();
        this.passes =
                new ForwardPassScheduler(
                        new ForwardPassScheduler.ForwardPass() {
                            @Override
                            public List<float[]> run(long[][] ids, boolean queries) {
                                return forwardAll(ids, queries);
                            }

                            @Override
                            public boolean runsAsShortPass(long[][] ids) {
                                return documentsRunAsShortPass(ids);
                            }
                        },
                        options.microBatching());
        this.int8Documents = int8Documents && weights.int8 != null;
        this.norms = weights.int8 == null ? List.of() : LayerNorms.of(weights);
        this.int8ShortPass =
                weights.int8 == null
                        ? Optional.empty()
                        : fusedAttention.map(
                                attention ->
                                        new Int8ShortPass(
                                                weights,
                                                spec.layerNormEpsilon(),
                                                spec.pooling(),
                                                attention,
                                                vectorAttention,
                                                SpinningHelpers.shared()));
    }

    /**
     * {@link VectorAttention} for {@code heads} heads of {@code headDim} values where {@code
     * jdk.incubator.vector} is loaded (its classes cannot load without it: the launcher adds it for
     * {@code serve}, {@code eval}, {@code ingest} and {@code mcp}, and the tests add it); empty
     * otherwise, and passes keep ATen's fused attention. {@link EncoderOptions#vectorAttention()}
     * off skips it.
     */
    static Optional<VectorAttention> vectorAttention(int heads, int headDim) {
        if (!VectorApi.loaded()) {
            return Optional.empty();
        }
        return VectorAttention.load(heads, headDim, SpinningHelpers.shared());
    }

    /**
     * Loads the model with what {@code options} chooses. Its converted weights are read from {@link
     * EncoderOptions#weightsCacheDir()} when a file there holds them for this model file and build
     * (see {@link WeightCacheFile}), else converted from the ONNX file and, given a directory,
     * written there in the background once the model is loaded. Either way the weights and the
     * tokenizer are made on their own thread ({@code cairn-model-weights}: pure Java and the
     * tokenizer's own native library) while PyTorch's native library starts and the attention, fp16
     * and int8 kernels bind on this one. A kernel this machine or libtorch lacks stays off whatever
     * the options say.
     */
    public static BertEncoder load(BertSpec spec, EncoderOptions options) {
        // the int8 packs are made while PyTorch starts, judged from the options and the CPU
        // alone; where the loaded libtorch then lacks the op, they go unused
        boolean int8Packs = options.int8() != Int8Linear.Use.OFF && Int8Linear.cpuOffersIt();
        return load(spec, options, int8Packs, () -> natives(options));
    }

    /**
     * The kernels bound on PyTorch's native library; {@code int8Documents} whether int8 runs every
     * pass rather than short query passes only.
     */
    private record Natives(
            Optional<FusedAttention> attention,
            Optional<HalfPrecisionLinear> half,
            Optional<BFloat16Linear> bf16,
            Optional<Int8Linear> int8,
            boolean int8Documents) {
        /** Where int8 runs every pass, fp16 and bfloat16 copies would go unused. */
        Natives {
            int8Documents = int8Documents && int8.isPresent();
            if (int8Documents) {
                half = Optional.empty();
                bf16 = Optional.empty();
            }
        }
    }

    /**
     * Starts PyTorch's native library and binds the kernels {@code options} choose on a thread of
     * its own ({@code cairn-torch-start}) and returns at once: a model loaded later finds them
     * bound (they are bound once per process) instead of waiting for them. A failure is left for
     * that load to report.
     */
    public static void startNatives(EncoderOptions options) {
        Thread.ofPlatform()
                .name("cairn-torch-start")
                .daemon(true)
                .start(
                        () -> {
                            try {
                                natives(options);
                            } catch (RuntimeException | LinkageError e) {
                                // the model's own load binds again and reports what fails
                            }
                        });
    }

    /** Starts PyTorch and binds the kernels {@code options} choose, where this machine has them. */
    private static Natives natives(EncoderOptions options) {
        return new Natives(
                options.fusedAttention() ? FusedAttention.supported() : Optional.empty(),
                options.halfWeights() ? HalfPrecisionLinear.supported() : Optional.empty(),
                options.bf16() ? BFloat16Linear.supported() : Optional.empty(),
                options.int8() == Int8Linear.Use.OFF ? Optional.empty() : Int8Linear.supported(),
                options.int8().documents());
    }

    /**
     * What the weights thread makes.
     *
     * @param image the converted weights
     * @param converted whether they were converted now (not read from the cache)
     * @param weightsNanos how long reading or converting them took
     * @param tokenizerNanos how long the tokenizer took to load
     */
    private record Prepared(
            WeightImage image,
            HfTokenizer tokenizer,
            boolean converted,
            long weightsNanos,
            long tokenizerNanos) {}

    private static BertEncoder load(
            BertSpec spec,
            EncoderOptions options,
            boolean int8Packs,
            Supplier<Natives> bindNatives) {
        long start = System.nanoTime();
        Optional<WeightCacheFile> cache =
                options.weightsCacheDir()
                        .map(
                                dir ->
                                        WeightCacheFile.in(
                                                dir, WeightCacheFile.Key.of(spec, int8Packs)));
        FutureTask<Prepared> preparing = new FutureTask<>(() -> prepare(spec, int8Packs, cache));
        Thread.ofPlatform().name("cairn-model-weights").daemon(true).start(preparing);
        Natives natives;
        try {
            natives = bindNatives.get();
        } catch (RuntimeException | Error e) {
            preparing.cancel(false);
            throw e;
        }
        long nativesNanos = System.nanoTime() - start;
        Prepared prepared = await(preparing, "preparing the model's weights");
        long uploadStart = System.nanoTime();
        NDManager manager = TorchRuntime.engine().newBaseManager();
        BertEncoder encoder;
        try {
            BertWeights weights =
                    BertWeights.upload(
                            prepared.image(),
                            spec.heads(),
                            manager,
                            natives.half(),
                            natives.bf16(),
                            natives.int8());
            encoder =
                    new BertEncoder(
                            spec,
                            manager,
                            prepared.image(),
                            weights,
                            prepared.tokenizer(),
                            options,
                            natives.attention(),
                            natives.int8Documents());
        } catch (RuntimeException e) {
            manager.close();
            prepared.tokenizer().close();
            prepared.image().close();
            throw e;
        }
        long now = System.nanoTime();
        String weightsFrom =
                prepared.converted()
                        ? "converted from " + spec.onnxResource()
                        : "read from " + cache.orElseThrow().file();
        LOG.log(
                Level.INFO,
                "model {0} loaded in {1}: weights {2} {3} beside PyTorch and kernels {4},"
                        + " tokenizer {5}, tensors and kernel packs {6}; linear layers: {7};"
                        + " attention: {8}",
                encoder.id(),
                seconds(now - start),
                weightsFrom,
                seconds(prepared.weightsNanos()),
                seconds(nativesNanos),
                seconds(prepared.tokenizerNanos()),
                seconds(now - uploadStart),
                encoder.linearLayers(),
                encoder.attention());
        if (prepared.converted() && cache.isPresent()) {
            encoder.saveInBackground(cache.get(), prepared.image());
        }
        return encoder;
    }

    /** The converted weights, from the cache when it holds them, then the tokenizer. */
    private static Prepared prepare(
            BertSpec spec, boolean int8Packs, Optional<WeightCacheFile> cache) {
        long start = System.nanoTime();
        Optional<WeightImage> cached = cache.flatMap(WeightCacheFile::load);
        WeightImage image =
                cached.orElseGet(
                        () ->
                                BertWeights.convert(
                                        BertWeights.parse(spec), spec.heads(), int8Packs));
        long tokenizerStart = System.nanoTime();
        HfTokenizer tokenizer;
        try {
            tokenizer =
                    HfTokenizer.fromClasspath(
                            spec.tokenizerResource(),
                            Math.min(spec.maxTokens(), BertWeights.maxPositions(image)));
        } catch (RuntimeException | Error e) {
            image.close();
            throw e;
        }
        return new Prepared(
                image,
                tokenizer,
                cached.isEmpty(),
                tokenizerStart - start,
                System.nanoTime() - tokenizerStart);
    }

    /**
     * Writes the weights just converted to {@code cache} on a thread of its own, so the model
     * serves meanwhile; {@link #close} waits for it, so a short-lived process still leaves the file
     * and a data dir is never deleted under the writer.
     */
    private void saveInBackground(WeightCacheFile cache, WeightImage image) {
        saving =
                Thread.ofPlatform()
                        .name("cairn-model-weights-save")
                        .start(
                                () -> {
                                    long start = System.nanoTime();
                                    try {
                                        cache.save(image);
                                        LOG.log(
                                                Level.INFO,
                                                "model weights saved to {0} ({1} MB) in {2}",
                                                cache.file(),
                                                image.bytes() >> 20,
                                                seconds(System.nanoTime() - start));
                                    } catch (RuntimeException e) {
                                        LOG.log(
                                                Level.WARNING,
                                                "model weights not saved, the next start"
                                                        + " converts them again: {0}",
                                                e.getMessage());
                                    }
                                });
    }

    /** Waits until the weights are saved (when they are being saved); package-private for tests. */
    void awaitSaved() {
        Thread s = saving;
        if (s == null) {
            return;
        }
        try {
            s.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String seconds(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.2f s", nanos / 1e9);
    }

    /** The result of {@code work}, its exceptions rethrown as they were thrown. */
    static <T> T await(Future<T> work, String what) {
        try {
            return work.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(what + " failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + what, e);
        }
    }

    BertSpec spec() {
        return spec;
    }

    /**
     * The spec's id, whichever arithmetic this encoder runs: int8 and bfloat16 document vectors
     * stay within the quality gate of float32 ones (cosine about 0.99 and 0.999; SciFact and LoCoMo
     * within 0.005), so they share its space, and a store written by servers on different CPUs
     * never embeds again what another wrote.
     */
    @Override
    public String id() {
        return spec.id();
    }

    /**
     * The spec's id, plus {@value #INT8_ID_SUFFIX} or {@value #BF16_ID_SUFFIX} when documents are
     * embedded through int8 or bfloat16 GEMMs: their vectors differ from float32 ones in the last
     * bits, so an embedding cache keeps them apart.
     */
    @Override
    public String exactId() {
        if (int8Documents) {
            return spec.id() + INT8_ID_SUFFIX;
        }
        return weights.bf16 != null ? spec.id() + BF16_ID_SUFFIX : spec.id();
    }

    /** {@link #linearLayers()}: e.g. {@code documents bfloat16, queries int8}. */
    @Override
    public String precision() {
        return linearLayers();
    }

    @Override
    public int dimensions() {
        return weights.hidden;
    }

    @Override
    public int maxTokens() {
        return maxTokens;
    }

    @Override
    public TokenCounter tokenCounter() {
        return tokenizer;
    }

    @Override
    public List<float[]> embedQueries(List<String> texts) {
        if (spec.queryPrefix().isEmpty()) {
            texts.forEach(BertEncoder::requireText);
            return embed(texts, true);
        }
        List<String> prefixed = new ArrayList<>(texts.size());
        for (String t : texts) {
            prefixed.add(spec.queryPrefix() + requireText(t));
        }
        return embed(prefixed, true);
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        texts.forEach(BertEncoder::requireText);
        return embed(texts, false);
    }

    private static String requireText(String text) {
        if (text == null) {
            throw new IllegalArgumentException("illegal text: null");
        }
        return text;
    }

    private List<float[]> embed(List<String> texts, boolean queries) {
        if (closed.get()) {
            throw new IllegalStateException("model " + id() + " is closed");
        }
        if (texts.isEmpty()) {
            return List.of();
        }
        long[][] ids = tokenizer.encodeForModel(texts);
        return queries ? passes.embedQueries(ids) : passes.embedDocuments(ids);
    }

    /**
     * Embeds already tokenised inputs (with special tokens) as documents; package-private for
     * tests.
     */
    List<float[]> embedTokenIds(long[][] ids) {
        return passes.embedDocuments(ids);
    }

    /**
     * The vectors of already tokenised inputs as one pass in {@code precision}, on the inference
     * thread with PyTorch's threads as a pass of that precision has them; package-private for
     * tests, which compare the routes a pass can take.
     */
    float[][] embedTokenIdsAsOnePass(long[][] ids, Precision precision) {
        Integer[] all = new Integer[ids.length];
        Arrays.setAll(all, i -> i);
        return TorchRuntime.onInferenceThread(
                () -> {
                    TorchRuntime.noGrad();
                    return pass(ids, all, precision);
                });
    }

    /** The scheduler in front of the inference thread; package-private for tests. */
    ForwardPassScheduler passes() {
        return passes;
    }

    private List<float[]> forwardAll(long[][] ids, boolean queries) {
        Integer[] order = new Integer[ids.length];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparingInt(i -> ids[i].length));
        float[][] out = new float[ids.length][];
        TorchRuntime.noGrad();
        int start = 0;
        while (start < order.length) {
            int end = start + 1;
            long realTokens = ids[order[start]].length;
            while (end < order.length && end - start < batchSize) {
                long longest = ids[order[end]].length;
                long padded = longest * (end - start + 1);
                if (padded > MAX_BATCH_TOKENS
                        || padded - (realTokens + longest) > MAX_PADDING_FRACTION * padded) {
                    break;
                }
                realTokens += longest;
                end++;
            }
            Integer[] batch = Arrays.copyOfRange(order, start, end);
            long rows = (long) batch.length * ids[order[end - 1]].length;
            start = end;
            float[][] vectors = pass(ids, batch, precision(rows, queries));
            for (int j = 0; j < batch.length; j++) {
                out[batch[j]] = vectors[j];
            }
        }
        return List.of(out);
    }

    /**
     * Whether these documents run as short passes on the int8 column slices or the fp16 weights:
     * the routes a query pass takes when it runs nested between the layers of a document pass, so
     * the scheduler may run them nested as well. Their vectors are the same bits either way: the
     * route depends only on the rows of the pass.
     */
    boolean documentsRunAsShortPass(long[][] ids) {
        if (ids.length == 0 || ids.length > batchSize) {
            return false;
        }
        long longest = 0;
        for (long[] row : ids) {
            longest = Math.max(longest, row.length);
        }
        Precision route = precision(longest * ids.length, false);
        return route == Precision.INT8_SLICES || route == Precision.HALF;
    }

    /** {@link #documentsRunAsShortPass(long[][])} of texts; package-private for tests. */
    boolean documentsRunAsShortPass(List<String> texts) {
        return documentsRunAsShortPass(tokenizer.encodeForModel(texts));
    }

    /** One forward pass of {@code batch}'s inputs in {@code precision}, on the inference thread. */
    private float[][] pass(long[][] ids, Integer[] batch, Precision precision) {
        // a short pass runs its GEMMs on the fp16 or int8 column slices, one per core, and the
        // rest of PyTorch on this thread alone (see HalfPrecisionLinear, Int8ShortPass)
        return precision == Precision.HALF || precision == Precision.INT8_SLICES
                ? TorchRuntime.withIntraOpThreads(1, () -> forwardBatch(ids, batch, precision))
                : forwardBatch(ids, batch, precision);
    }

    /**
     * Where int8 runs query passes and libtorch has fused attention, every query pass, however many
     * rows, runs in {@link Int8ShortPass} on the int8 column slices, one per core: a batch of
     * concurrent queries is still bound by the many small steps between the products, which the
     * Java pass does on this thread and its helper, where tensor ops on the whole product wake
     * PyTorch's OpenMP team, whose spinning takes the cores the requests need (AMD EPYC Zen 5, 2
     * cores, 16 concurrent callers: 180-193 queries/s against 125-133 with query passes above 320
     * rows as tensor ops; 32 callers 201 against 109).
     *
     * <p>Where int8 runs every pass, documents share its arithmetic and every document vector under
     * the model's id comes from it: a short document pass (up to {@link #shortPassMaxRows} rows: a
     * short memory, a few messages) in {@link Int8ShortPass} too (as tensor ops on the whole
     * product where libtorch has no fused attention), longer ones on the whole int8 product, whose
     * attention and small ops PyTorch's threads share. Otherwise documents go through bfloat16 when
     * it is on, whatever their batch; queries without int8 take a short pass on the fp16 weights
     * (bound by reading the weights, which fp16 halves), and above that bfloat16 when it is on (a
     * big batch of concurrent queries is bound by arithmetic, like documents), else float32.
     * Documents without either kernel take the same route as queries without int8.
     */
    private Precision precision(long rows, boolean queries) {
        if (queries && int8ShortPass.isPresent()) {
            return Precision.INT8_SLICES;
        }
        boolean shortPass = rows <= shortPassMaxRows();
        if (int8Documents) {
            return shortPass && int8ShortPass.isPresent() ? Precision.INT8_SLICES : Precision.INT8;
        }
        if (!queries && weights.bf16 != null) {
            return Precision.BF16;
        }
        if (weights.half != null && shortPass) {
            return Precision.HALF;
        }
        return weights.bf16 != null ? Precision.BF16 : Precision.FLOAT32;
    }

    /**
     * Which arithmetic the linear layers of each kind of pass use, for the load log line: e.g.
     * {@code documents bfloat16, queries int8} or {@code documents bfloat16, queries up to 48 rows
     * fp16 weights and above bfloat16}.
     */
    String linearLayers() {
        return "documents " + linearLayers(false) + ", queries " + linearLayers(true);
    }

    private String linearLayers(boolean queries) {
        int bound = shortPassMaxRows();
        String shortPass = arithmetic(precision(1, queries));
        String longPass = arithmetic(precision(bound + 1L, queries));
        return shortPass.equals(longPass)
                ? shortPass
                : "up to " + bound + " rows " + shortPass + " and above " + longPass;
    }

    /** How attention is computed, for the load log line. */
    String attention() {
        if (vectorAttention.isPresent()) {
            return "Java (Vector API)";
        }
        return fusedAttention.isPresent() ? "fused (ATen)" : "separate ops";
    }

    private static String arithmetic(Precision precision) {
        return switch (precision) {
            case FLOAT32 -> "float32";
            case HALF -> "fp16 weights";
            case BF16 -> "bfloat16";
            case INT8, INT8_SLICES -> "int8";
        };
    }

    /**
     * The most rows a pass other than an int8 query pass (which has no bound, see {@link
     * #precision}) runs as a short pass, its GEMMs cut into one slice per core (int8 where it runs
     * document passes, else fp16) and the rest of PyTorch on one thread, given which kernels this
     * encoder has: {@link #HALF_WEIGHT_MAX_ROWS} only where fp16 short passes give way to bfloat16
     * on AMX tiles.
     */
    int shortPassMaxRows() {
        return int8ShortPass.isEmpty() && weights.bf16 != null && weights.bf16.onMatrixTiles()
                ? HALF_WEIGHT_MAX_ROWS
                : HALF_WEIGHT_MAX_ROWS_WITHOUT_AMX;
    }

    private float[][] forwardBatch(long[][] ids, Integer[] batch, Precision precision) {
        int b = batch.length;
        int t = 0;
        int shortest = Integer.MAX_VALUE;
        for (int i : batch) {
            t = Math.max(t, ids[i].length);
            shortest = Math.min(shortest, ids[i].length);
        }
        boolean padded = shortest < t;
        long[] flatIds = new long[b * t];
        int[] lengths = new int[b];
        for (int j = 0; j < b; j++) {
            long[] row = ids[batch[j]];
            System.arraycopy(row, 0, flatIds, j * t, row.length);
            lengths[j] = row.length;
        }
        if (precision == Precision.INT8_SLICES) {
            try (NDManager m = manager.newSubManager()) {
                float[][] vectors =
                        int8ShortPass
                                .orElseThrow()
                                .pooled(m, flatIds, lengths, t, passes::yieldBetweenLayers);
                for (float[] v : vectors) {
                    RowKernels.normalise(v);
                }
                return vectors;
            }
        }
        float[] flatMask = new float[b * t];
        for (int j = 0; j < b; j++) {
            Arrays.fill(flatMask, j * t, j * t + lengths[j], 1f);
        }
        try (NDManager m = manager.newSubManager()) {
            NDArray inputIds = m.create(LongBuffer.wrap(flatIds), new Shape(b, t));
            NDArray mask = m.create(FloatBuffer.wrap(flatMask), new Shape(b, t));
            NDArray pooled = encode(m, inputIds, mask, lengths, t, padded, precision);
            NDArray normalised = pooled.normalize(2, 1, 1e-12);
            float[] flat = normalised.toFloatArray();
            int d = weights.hidden;
            float[][] vectors = new float[b][];
            for (int j = 0; j < b; j++) {
                vectors[j] = Arrays.copyOfRange(flat, j * d, (j + 1) * d);
            }
            return vectors;
        }
    }

    /**
     * The hidden state is kept as a {@code [b·t, h]} matrix between layers: a linear layer on a 2-D
     * input is one {@code addmm} (bias fused into the GEMM), whereas on {@code [b, t, h]} PyTorch
     * folds it into {@code matmul} plus a separate add, measured 15-25% slower per GEMM on this
     * CPU. Only attention needs the 4-D per-head view. Returns the pooled {@code [b, h]} states.
     */
    private NDArray encode(
            NDManager m,
            NDArray inputIds,
            NDArray mask,
            int[] lengths,
            int t,
            boolean padded,
            Precision precision) {
        int b = lengths.length;
        int h = weights.hidden;
        int heads = h / weights.headDim;
        float eps = spec.layerNormEpsilon();
        Shape hiddenShape = new Shape(h);
        NDArray x;
        try (NDScope scope = new NDScope()) {
            NDArray words =
                    Embedding.embedding(inputIds, weights.wordEmbeddings, SparseFormat.DENSE)
                            .singletonOrThrow();
            NDArray positions = weights.positionPlusTypeEmbeddings.get(new NDIndex("0:{}", t));
            positions.attach(m);
            words.addi(positions);
            x =
                    LayerNorm.layerNorm(
                                    words.reshape(b * (long) t, h),
                                    hiddenShape,
                                    weights.embeddingNormGamma,
                                    weights.embeddingNormBeta,
                                    eps)
                            .singletonOrThrow();
            NDScope.unregister(x);
        }
        // A batch without padding (every single query) needs no mask at all; Java attention
        // reads the inputs' lengths instead.
        NDArray maskBias =
                padded && vectorAttention.isEmpty()
                        ? mask.reshape(b, 1, 1, t).sub(1f).muli(-MASKED_LOGIT)
                        : null;
        boolean clsPooling = spec.pooling() == Pooling.CLS;
        int last = weights.layers.size() - 1;
        boolean rowLoops = precision == Precision.INT8 && VectorApi.loaded();
        // x quantised by the previous layer's last row loop, for this layer's first product
        Int8Linear.QuantisedRows quantisedX = null;
        for (int l = 0; l <= last; l++) {
            BertWeights.Layer layer = weights.layers.get(l);
            // CLS pooling reads one row per input, and after attention every row is computed on
            // its own: the last layer needs keys and values of all tokens, the rest for row 0 only
            boolean clsOnly = clsPooling && l == last;
            int rows = clsOnly ? 1 : t;
            NDArray next;
            Int8Linear.QuantisedRows quantisedNext = null;
            try (NDScope scope = new NDScope()) {
                NDArray qkvRows =
                        quantisedX == null
                                ? linear(x, layer.qkv(), precision)
                                : weights.int8.apply(quantisedX, layer.qkv().int8());
                NDArray context;
                if (vectorAttention.isPresent()) {
                    context = m.create(new Shape(b * (long) rows, h), DataType.FLOAT32);
                    vectorAttention
                            .get()
                            .apply(
                                    NativeAten.memory(qkvRows),
                                    lengths,
                                    t,
                                    clsOnly,
                                    NativeAten.memory(context));
                } else {
                    NDArray qkv =
                            qkvRows.reshape(b, t, 3, heads, weights.headDim)
                                    .transpose(2, 0, 3, 1, 4);
                    NDArray q = clsOnly ? qkv.get("0, :, :, 0:1") : qkv.get(0);
                    context =
                            attention(q, qkv.get(1), qkv.get(2), maskBias, b, heads, t)
                                    .transpose(0, 2, 1, 3)
                                    .reshape(b * (long) rows, h);
                }
                if (rowLoops) {
                    quantisedNext = l == last ? null : new Int8Linear.QuantisedRows(m, b * rows, h);
                    next = int8RowLoops(m, context, x, clsOnly ? t : 1, l, quantisedNext);
                    if (quantisedNext != null) {
                        NDScope.unregister(quantisedNext.tensor());
                    }
                } else {
                    NDArray residual = clsOnly ? x.reshape(b, t, h).get(":, 0, :") : x;
                    NDArray attended =
                            linear(context, layer.attentionOut(), precision).addi(residual);
                    NDArray y =
                            LayerNorm.layerNorm(
                                            attended,
                                            hiddenShape,
                                            layer.attentionNormGamma(),
                                            layer.attentionNormBeta(),
                                            eps)
                                    .singletonOrThrow();
                    NDArray inner = Activation.gelu(linear(y, layer.intermediate(), precision));
                    NDArray ffn = linear(inner, layer.output(), precision).addi(y);
                    next =
                            LayerNorm.layerNorm(
                                            ffn,
                                            hiddenShape,
                                            layer.outputNormGamma(),
                                            layer.outputNormBeta(),
                                            eps)
                                    .singletonOrThrow();
                }
                NDScope.unregister(next);
            }
            x.close();
            if (quantisedX != null) {
                quantisedX.close();
            }
            x = next;
            quantisedX = quantisedNext;
            passes.yieldBetweenLayers();
        }
        return clsPooling ? x : pool(x.reshape(b, t, h), mask, b, t);
    }

    /**
     * Layer {@code l} after attention, with int8 products and the Vector API's row loops: each
     * product's int32 sums go through one pass to the next product's quantised input, {@code
     * LayerNorm(context·Wᵀ + b + residual)} quantised for the intermediate product, {@code GELU} of
     * that quantised for the output product, then {@code LayerNorm(ffn + y)}, quantised into {@code
     * quantisedNext} for the next layer unless null (see {@link Int8Linear#addNormalised}, {@link
     * Int8Linear#geluQuantised}). The same row arithmetic as {@link Int8ShortPass}. Row {@code r}
     * of the context adds row {@code r·residualStride} of {@code x}.
     */
    private NDArray int8RowLoops(
            NDManager m,
            NDArray context,
            NDArray x,
            int residualStride,
            int l,
            Int8Linear.QuantisedRows quantisedNext) {
        Int8Linear int8 = weights.int8;
        BertWeights.Layer layer = weights.layers.get(l);
        LayerNorms norm = norms.get(l);
        float eps = spec.layerNormEpsilon();
        int rows = Math.toIntExact(context.getShape().get(0));
        try (Int8Linear.QuantisedRows quantisedContext = int8.quantised(context);
                Int8Linear.QuantisedRows quantisedY =
                        new Int8Linear.QuantisedRows(m, rows, weights.hidden);
                NDArray y =
                        int8.addNormalised(
                                quantisedContext,
                                layer.attentionOut().int8(),
                                x,
                                residualStride,
                                norm.attentionGamma(),
                                norm.attentionBeta(),
                                eps,
                                quantisedY);
                Int8Linear.QuantisedRows inner =
                        int8.geluQuantised(quantisedY, layer.intermediate().int8())) {
            return int8.addNormalised(
                    inner,
                    layer.output().int8(),
                    y,
                    1,
                    norm.outputGamma(),
                    norm.outputBeta(),
                    eps,
                    quantisedNext);
        }
    }

    /**
     * {@code x·Wᵀ + b} for a {@code [rows, in]} input, in the precision {@link #precision} chose
     * for the pass: the half-precision weights, bfloat16 or int8 GEMMs, or one float32 {@code
     * addmm}.
     */
    private NDArray linear(NDArray x, BertWeights.Dense dense, Precision precision) {
        return switch (precision) {
            case HALF -> weights.half.apply(x, dense.half());
            case BF16 -> weights.bf16.apply(x, dense.bf16());
            case INT8 -> weights.int8.apply(x, dense.int8());
            case INT8_SLICES ->
                    throw new IllegalStateException("short int8 passes run in Int8ShortPass");
            case FLOAT32 -> Linear.linear(x, dense.weight(), dense.bias()).singletonOrThrow();
        };
    }

    /**
     * {@code softmax(QKᵀ + mask)·V} for queries already scaled by {@code 1/sqrt(headDim)} (see
     * {@link BertWeights}): fused where libtorch offers it, else {@link #unfusedAttention}.
     */
    private NDArray attention(
            NDArray q, NDArray k, NDArray v, NDArray maskBias, int b, int heads, int t) {
        return fusedAttention.isPresent()
                ? fusedAttention.get().apply(q, k, v, maskBias, 1.0)
                : unfusedAttention(q, k, v, maskBias, b, heads, t);
    }

    /**
     * {@code softmax(QKᵀ + mask)·V} in separate ops, over slices of the batch small enough that the
     * {@code [n, heads, T, T]} logits stay in cache and below the allocator's mmap threshold; at
     * {@code T = 512} one slice of the whole batch would be hundreds of MB per layer, and
     * page-faulting and streaming that dominated the run time.
     */
    private static NDArray unfusedAttention(
            NDArray q, NDArray k, NDArray v, NDArray maskBias, int b, int heads, int t) {
        long logitsPerSample = (long) heads * t * t;
        int slice = (int) Math.max(1, Math.min(b, ATTENTION_LOGITS_PER_SLICE / logitsPerSample));
        if (slice >= b) {
            NDArray logits = q.matMul(k.transpose(0, 1, 3, 2));
            if (maskBias != null) {
                logits.addi(maskBias);
            }
            return logits.softmax(-1).matMul(v);
        }
        NDList parts = new NDList();
        for (int lo = 0; lo < b; lo += slice) {
            NDIndex range = new NDIndex("{}:{}", lo, Math.min(b, lo + slice));
            NDArray scores = q.get(range).matMul(k.get(range).transpose(0, 1, 3, 2));
            if (maskBias != null) {
                scores.addi(maskBias.get(range));
            }
            parts.add(scores.softmax(-1).matMul(v.get(range)));
        }
        return NDArrays.concat(parts);
    }

    /** Mean of the unmasked rows of {@code [b, t, h]} hidden states. */
    private static NDArray pool(NDArray hidden, NDArray mask, int b, int t) {
        NDArray m3 = mask.reshape(b, t, 1);
        return hidden.mul(m3).sum(new int[] {1}).div(m3.sum(new int[] {1}).maximum(1e-9f));
    }

    /**
     * Frees the weights once no pass runs: a background document job may still be on the inference
     * thread, and freeing under it would crash the process. Returns once freshly converted weights
     * are saved (see {@link #saveInBackground}).
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            passes.close(
                    () -> {
                        tokenizer.close();
                        manager.close();
                        // the background save reads the image: free it once that is done
                        awaitSaved();
                        image.close();
                    });
        }
        awaitSaved();
    }

    @Override
    public String toString() {
        return "BertEncoder[" + id() + ", " + weights.layers.size() + " layers]";
    }
}
