package dev.cairn.embeddings.bert;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import dev.cairn.embeddings.Pooling;
import dev.cairn.embeddings.kernels.FusedAttention;
import dev.cairn.embeddings.kernels.Int8Linear;
import dev.cairn.embeddings.kernels.NativeAten;
import dev.cairn.embeddings.kernels.RowKernels;
import dev.cairn.embeddings.kernels.SpinningHelpers;
import dev.cairn.embeddings.kernels.VectorAttention;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.FloatBuffer;
import java.util.List;
import java.util.Optional;

/**
 * A forward pass of short inputs (a query or a batch of concurrent ones, whatever its rows; a short
 * document pass up to {@link BertEncoder#shortPassMaxRows} rows) on the int8 weights, orchestrated
 * in Java. The arithmetic is {@link BertEncoder}'s, with the products of {@link Int8Linear}.
 *
 * <p>Why: written as DJL operations, such a pass spent about a sixth of its inference thread in
 * oneDNN's int8 GEMMs (2 cores, Intel Xeon with AVX-512 VNNI); the rest went to some forty small
 * PyTorch ops per layer (layer norms, adds, GELU, reshapes, copies), each a JNI call through DJL,
 * PyTorch's dispatcher and an allocation, on inputs of a few kilobytes.
 *
 * <p>How: per layer the native calls are the four linear layers' int8 products, each cut by output
 * columns into one slice per core ({@link Int8Linear.SliceProducts}, written into int32 tensors
 * made once per pass), and one fused attention ({@link FusedAttention}). Everything between them is
 * Java loops over one row at a time, each fusing the end of one linear layer with the start of the
 * next: rescaling with the bias, the residual, LayerNorm, exact GELU and the quantisation of the
 * next product's input ({@link RowKernels}). Q, K and V are rescaled straight into the tensor whose
 * views attention reads; attention's output is read in place. Rows are split across the helpers of
 * {@link SpinningHelpers} where there are enough of them.
 *
 * <p>One caller at a time (the inference thread): the helpers are shared.
 */
final class Int8ShortPass {

    /**
     * Fewest rows a Java loop hands to another core. A row costs about a microsecond per loop, a
     * hand-off to the helper (spinning between a layer's products) about as much, so a query's
     * 20-30 rows are split in two: lone query pass p50 4.3-5.0 ms against 5.7-6.3 ms with {@link
     * Int8Linear#MIN_ROWS_PER_PART} (32; alternating probe runs, 2 cores, Intel Xeon).
     */
    private static final int MIN_ROWS_PER_PART = 8;

    private final BertWeights weights;
    private final FusedAttention attention;
    private final Optional<VectorAttention> vectorAttention;
    private final SpinningHelpers helpers;
    private final float eps;
    private final boolean clsPooling;
    private final int hidden;
    private final int heads;
    private final int inner;
    private final float[] embeddingGamma;
    private final float[] embeddingBeta;
    private final List<LayerNorms> norms;

    /** The word embedding table {@code [vocabulary, hidden]}. */
    private final MemorySegment words;

    private final long vocabulary;

    /** Position embeddings with token type 0 folded in, {@code [positions, hidden]}. */
    private final MemorySegment positions;

    /**
     * A pass over {@code weights} (which must carry int8 packs), with LayerNorm epsilon {@code
     * eps}.
     */
    Int8ShortPass(
            BertWeights weights,
            float eps,
            Pooling pooling,
            FusedAttention attention,
            Optional<VectorAttention> vectorAttention,
            SpinningHelpers helpers) {
        if (weights.int8 == null) {
            throw new IllegalArgumentException("illegal weights: no int8 packs");
        }
        this.weights = weights;
        this.attention = attention;
        this.vectorAttention = vectorAttention;
        this.helpers = helpers;
        this.eps = eps;
        this.clsPooling = pooling == Pooling.CLS;
        this.hidden = weights.hidden;
        this.heads = weights.hidden / weights.headDim;
        this.inner = weights.layers.getFirst().intermediate().int8().out();
        this.embeddingGamma = weights.embeddingNormGamma.toFloatArray();
        this.embeddingBeta = weights.embeddingNormBeta.toFloatArray();
        this.norms = LayerNorms.of(weights);
        this.words = NativeAten.memory(weights.wordEmbeddings);
        this.vocabulary = weights.wordEmbeddings.getShape().get(0);
        this.positions = NativeAten.memory(weights.positionPlusTypeEmbeddings);
    }

    /**
     * The pooled final hidden states ({@code [CLS]} or mean, not normalised) of {@code
     * lengths.length} inputs whose token ids are the rows of {@code ids} ({@code [b, t]} row-major,
     * padding after each input's {@code lengths[j]} tokens). Tensors are made on {@code manager};
     * {@code betweenLayers} runs after each layer.
     */
    float[][] pooled(NDManager manager, long[] ids, int[] lengths, int t, Runnable betweenLayers) {
        int b = lengths.length;
        int rows = b * t;
        if (ids.length != rows) {
            throw new IllegalArgumentException(
                    "illegal ids: " + ids.length + " for " + b + " inputs of " + t + " tokens");
        }
        for (long id : ids) {
            if (id < 0 || id >= vocabulary) {
                throw new IllegalArgumentException("illegal token id: " + id);
            }
        }
        Pass pass = new Pass(manager, lengths, t);
        float[] x = pass.embed(ids);
        int last = weights.layers.size() - 1;
        for (int l = 0; l <= last; l++) {
            pass.layer(l, x, l == last);
            betweenLayers.run();
        }
        float[][] pooled = new float[b][hidden];
        for (int j = 0; j < b; j++) {
            if (clsPooling) {
                // the last layer kept one row per input
                System.arraycopy(x, j * hidden, pooled[j], 0, hidden);
            } else {
                for (int i = 0; i < lengths[j]; i++) {
                    int row = (j * t + i) * hidden;
                    for (int k = 0; k < hidden; k++) {
                        pooled[j][k] += x[row + k];
                    }
                }
                float count = Math.max(1, lengths[j]);
                for (int k = 0; k < hidden; k++) {
                    pooled[j][k] /= count;
                }
            }
        }
        return pooled;
    }

    /**
     * The int8 inputs and products of the linear layers after attention, for a given number of rows
     * (Q, K and V are always made for every row: {@link Pass#qkv}).
     */
    private final class Products {
        final Int8Linear.QuantisedRows hiddenRows;
        final Int8Linear.QuantisedRows innerRows;
        final Int8Linear.SliceProducts attentionOut;
        final Int8Linear.SliceProducts intermediate;
        final Int8Linear.SliceProducts output;

        Products(NDManager manager, int rows) {
            BertWeights.Layer shape = weights.layers.getFirst();
            Int8Linear int8 = weights.int8;
            hiddenRows = new Int8Linear.QuantisedRows(manager, rows, hidden);
            innerRows = new Int8Linear.QuantisedRows(manager, rows, inner);
            attentionOut = int8.new SliceProducts(hiddenRows, shape.attentionOut().int8());
            intermediate = int8.new SliceProducts(hiddenRows, shape.intermediate().int8());
            output = int8.new SliceProducts(innerRows, shape.output().int8());
        }
    }

    /**
     * Views of a pass's Q, K and V for fused attention, {@code [b, heads, t, headDim]}; the queries
     * of each input's first row (for the last layer with {@code [CLS]} pooling, else null); the
     * additive mask {@code [b, 1, 1, t]}, null without padding.
     */
    private record FusedInputs(NDArray q, NDArray k, NDArray v, NDArray qFirst, NDArray mask) {}

    /** The tensors and buffers of one pass, made once and reused by every layer. */
    private final class Pass {
        private final NDManager manager;
        private final int b;
        private final int t;
        private final int rows;
        private final Products all;

        /** Q, K and V of every row from {@code all.hiddenRows}: every layer needs all of them. */
        private final Int8Linear.SliceProducts qkv;

        /** After the last layer's attention with {@code [CLS]} pooling: one row per input. */
        private final Products firstRows;

        /**
         * Q, K and V of every row, {@code [rows, 3·hidden]}, written by Java, read by attention.
         */
        private final MemorySegment qkvMemory;

        /** What fused attention reads; null where {@link #vectorAttention} computes attention. */
        private final FusedInputs fused;

        /** The hidden state after each layer's attention block, {@code [rows, hidden]}. */
        private final float[] attended;

        /** Tokens of each input. */
        private final int[] lengths;

        /**
         * Attention's output where {@link #vectorAttention} computes it, {@code [rows, hidden]};
         * else null.
         */
        private final float[] context;

        Pass(NDManager manager, int[] lengths, int t) {
            this.manager = manager;
            this.b = lengths.length;
            this.t = t;
            this.rows = b * t;
            this.all = new Products(manager, rows);
            this.qkv =
                    weights.int8
                    .new SliceProducts(all.hiddenRows, weights.layers.getFirst().qkv().int8());
            this.firstRows = clsPooling ? new Products(manager, b) : null;
            NDArray qkvRows = manager.create(new Shape(rows, 3L * hidden), DataType.FLOAT32);
            this.qkvMemory = NativeAten.memory(qkvRows);
            // Java attention reads Q, K and V and the lengths as they are: no views, no mask
            this.fused = vectorAttention.isPresent() ? null : fusedInputs(qkvRows, lengths);
            this.attended = new float[rows * hidden];
            this.lengths = lengths;
            this.context = vectorAttention.isPresent() ? new float[rows * hidden] : null;
        }

        private FusedInputs fusedInputs(NDArray qkvRows, int[] lengths) {
            NDArray byHead =
                    qkvRows.reshape(b, t, 3, heads, weights.headDim).transpose(2, 0, 3, 1, 4);
            return new FusedInputs(
                    byHead.get(0),
                    byHead.get(1),
                    byHead.get(2),
                    clsPooling ? byHead.get("0, :, :, 0:1") : null,
                    maskOf(lengths));
        }

        private NDArray maskOf(int[] lengths) {
            boolean padded = false;
            float[] bias = new float[rows];
            for (int j = 0; j < b; j++) {
                for (int i = lengths[j]; i < t; i++) {
                    bias[j * t + i] = BertEncoder.MASKED_LOGIT;
                    padded = true;
                }
            }
            return padded ? manager.create(FloatBuffer.wrap(bias), new Shape(b, 1, 1, t)) : null;
        }

        /**
         * The embedded, normalised input rows ({@code [rows, hidden]}), also quantised for the
         * first layer.
         */
        float[] embed(long[] ids) {
            float[] x = new float[rows * hidden];
            helpers.byRows(
                    rows,
                    MIN_ROWS_PER_PART,
                    (from, to) -> {
                        float[] position = new float[hidden];
                        byte[] scratch = new byte[hidden];
                        for (int r = from; r < to; r++) {
                            int o = r * hidden;
                            long rowBytes = (long) hidden * Float.BYTES;
                            MemorySegment.copy(
                                    words, ValueLayout.JAVA_FLOAT, ids[r] * rowBytes, x, o, hidden);
                            MemorySegment.copy(
                                    positions,
                                    ValueLayout.JAVA_FLOAT,
                                    (r % t) * rowBytes,
                                    position,
                                    0,
                                    hidden);
                            for (int k = 0; k < hidden; k++) {
                                x[o + k] += position[k];
                            }
                            RowKernels.layerNorm(x, o, embeddingGamma, embeddingBeta, eps, x, o);
                            all.hiddenRows.set(r, x, o, scratch);
                        }
                    });
            return x;
        }

        /**
         * Layer {@code l} over the hidden state {@code x}, whose rows are already quantised into
         * {@code all.hiddenRows}; leaves the next hidden state in {@code x}, quantised likewise
         * unless {@code last}. With {@code [CLS]} pooling the last layer computes only each input's
         * first row after attention (every row is computed on its own from there), so {@code x}
         * then holds {@code b} rows.
         */
        void layer(int l, float[] x, boolean last) {
            BertWeights.Layer layer = weights.layers.get(l);
            LayerNorms norm = norms.get(l);
            boolean firstOnly = last && clsPooling;
            Products after = firstOnly ? firstRows : all;
            int outRows = firstOnly ? b : rows;
            int residualStride = firstOnly ? t : 1;

            Int8Linear.Packed qkvWeight = layer.qkv().int8();
            qkv.run(qkvWeight);
            helpers.byRows(
                    rows,
                    MIN_ROWS_PER_PART,
                    (from, to) -> {
                        float[] y = new float[3 * hidden];
                        int[] acc = new int[3 * hidden];
                        for (int r = from; r < to; r++) {
                            qkv.rescaleRow(r, qkvWeight, y, acc);
                            MemorySegment.copy(
                                    y,
                                    0,
                                    qkvMemory,
                                    ValueLayout.JAVA_FLOAT,
                                    (long) r * y.length * Float.BYTES,
                                    y.length);
                        }
                    });

            if (fused == null) {
                MemorySegment contextMemory =
                        MemorySegment.ofArray(context)
                                .asSlice(0, (long) outRows * hidden * Float.BYTES);
                vectorAttention
                        .orElseThrow()
                        .apply(qkvMemory, lengths, t, firstOnly, contextMemory);
                quantise(contextMemory, outRows, after.hiddenRows);
            } else {
                NDArray q = firstOnly ? fused.qFirst() : fused.q();
                try (NDArray output = attention.apply(q, fused.k(), fused.v(), fused.mask(), 1.0);
                        NDArray byRow = output.transpose(0, 2, 1, 3)) {
                    // attention's output is laid out [b, t, heads, headDim]: read as rows in place
                    quantise(NativeAten.memory(byRow), outRows, after.hiddenRows);
                }
            }

            addAndNormalise(
                    after.attentionOut,
                    layer.attentionOut().int8(),
                    outRows,
                    x,
                    residualStride,
                    norm.attentionGamma(),
                    norm.attentionBeta(),
                    attended,
                    after.hiddenRows);

            Int8Linear.Packed intermediate = layer.intermediate().int8();
            after.intermediate.run(intermediate);
            helpers.byRows(
                    outRows,
                    MIN_ROWS_PER_PART,
                    (from, to) -> {
                        float[] y = new float[inner];
                        int[] acc = new int[inner];
                        byte[] scratch = new byte[inner];
                        for (int r = from; r < to; r++) {
                            after.intermediate.rescaleRow(r, intermediate, y, acc);
                            RowKernels.gelu(y, inner);
                            after.innerRows.set(r, y, 0, scratch);
                        }
                    });

            addAndNormalise(
                    after.output,
                    layer.output().int8(),
                    outRows,
                    attended,
                    1,
                    norm.outputGamma(),
                    norm.outputBeta(),
                    x,
                    last ? null : all.hiddenRows);
        }

        /**
         * The first {@code rows} rows of {@code context}, {@code [rows, hidden]}, into {@code to}.
         */
        private void quantise(MemorySegment context, int rows, Int8Linear.QuantisedRows to) {
            helpers.byRows(
                    rows,
                    MIN_ROWS_PER_PART,
                    (from, end) -> {
                        float[] row = new float[hidden];
                        byte[] scratch = new byte[hidden];
                        for (int r = from; r < end; r++) {
                            MemorySegment.copy(
                                    context,
                                    ValueLayout.JAVA_FLOAT,
                                    (long) r * hidden * Float.BYTES,
                                    row,
                                    0,
                                    hidden);
                            to.set(r, row, 0, scratch);
                        }
                    });
        }

        /**
         * A linear layer's end and the next one's start, row by row: for each of {@code rows} rows
         * {@code r}, {@code product}'s row with {@code weight}'s scales and bias plus row {@code
         * r·residualStride} of {@code residual}, layer-normalised into row {@code r} of {@code
         * out}, then quantised into {@code next} unless that is null.
         */
        private void addAndNormalise(
                Int8Linear.SliceProducts product,
                Int8Linear.Packed weight,
                int rows,
                float[] residual,
                int residualStride,
                float[] gamma,
                float[] beta,
                float[] out,
                Int8Linear.QuantisedRows next) {
            product.run(weight);
            helpers.byRows(
                    rows,
                    MIN_ROWS_PER_PART,
                    (from, to) -> {
                        float[] y = new float[hidden];
                        int[] acc = new int[hidden];
                        byte[] scratch = new byte[hidden];
                        for (int r = from; r < to; r++) {
                            product.rescaleRow(r, weight, y, acc);
                            int start = r * residualStride * hidden;
                            for (int n = 0; n < hidden; n++) {
                                y[n] += residual[start + n];
                            }
                            int o = r * hidden;
                            RowKernels.layerNorm(y, 0, gamma, beta, eps, out, o);
                            if (next != null) {
                                next.set(r, out, o, scratch);
                            }
                        }
                    });
        }
    }
}
