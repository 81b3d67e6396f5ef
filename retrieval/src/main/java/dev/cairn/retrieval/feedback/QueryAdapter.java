package dev.cairn.retrieval.feedback;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A linear map of query embeddings, {@code q' = W q / |W q|}, learned from a namespace's judgments
 * so that its dense signal ranks judged-relevant chunks higher without re-embedding any chunk: the
 * cosine {@code q'.d} is {@code q^T W^T d / |W q|}, a learned bilinear similarity. {@code W} is
 * {@code d x d}, row-major, and starts as the identity (which changes nothing). Immutable and
 * thread-safe.
 */
public final class QueryAdapter {

    private final int dimensions;
    private final float[] matrix;

    private QueryAdapter(int dimensions, float[] matrix) {
        if (dimensions < 1) {
            throw new IllegalArgumentException(
                    "illegal dimensions: " + dimensions + ", must be >= 1");
        }
        if (matrix.length != dimensions * dimensions) {
            throw new IllegalArgumentException(
                    "illegal matrix length: "
                            + matrix.length
                            + ", must be dimensions^2 = "
                            + dimensions * dimensions);
        }
        for (float v : matrix) {
            if (!Float.isFinite(v)) {
                throw new IllegalArgumentException(
                        "illegal matrix entry: " + v + ", must be finite");
            }
        }
        this.dimensions = dimensions;
        this.matrix = matrix;
    }

    /** The identity map of {@code dimensions}-dimensional embeddings. */
    public static QueryAdapter identity(int dimensions) {
        float[] m = new float[dimensions * dimensions];
        for (int i = 0; i < dimensions; i++) {
            m[i * dimensions + i] = 1f;
        }
        return new QueryAdapter(dimensions, m);
    }

    /** The adapter with matrix {@code w} (row-major, copied). */
    public static QueryAdapter of(int dimensions, float[] w) {
        return new QueryAdapter(dimensions, w.clone());
    }

    /** Reads {@link #toBytes()}'s encoding. */
    public static QueryAdapter fromBytes(int dimensions, byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        float[] m = new float[bytes.length / Float.BYTES];
        buffer.asFloatBuffer().get(m);
        return new QueryAdapter(dimensions, m);
    }

    public int dimensions() {
        return dimensions;
    }

    /** The matrix, row-major (a copy). */
    public float[] matrix() {
        return matrix.clone();
    }

    /** The matrix as little-endian floats, for storage. */
    public byte[] toBytes() {
        ByteBuffer buffer =
                ByteBuffer.allocate(matrix.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asFloatBuffer().put(matrix);
        return buffer.array();
    }

    /**
     * {@code W q} scaled to unit length, a new array; {@code q} is left as it is (it may be a
     * cached embedding).
     *
     * @throws IllegalArgumentException when {@code q} has the wrong dimension
     */
    public float[] apply(float[] q) {
        if (q.length != dimensions) {
            throw new IllegalArgumentException(
                    "illegal query dimension: " + q.length + ", must be " + dimensions);
        }
        float[] out = new float[dimensions];
        multiply(matrix, dimensions, q, out);
        double norm = 0;
        for (float v : out) {
            norm += v * v;
        }
        norm = Math.sqrt(norm);
        if (norm == 0) {
            return q.clone();
        }
        for (int i = 0; i < dimensions; i++) {
            out[i] = (float) (out[i] / norm);
        }
        return out;
    }

    /** {@code out = W q} for a row-major {@code d x d} matrix {@code w}. */
    static void multiply(float[] w, int d, float[] q, float[] out) {
        for (int i = 0; i < d; i++) {
            double sum = 0;
            int row = i * d;
            for (int j = 0; j < d; j++) {
                sum += w[row + j] * q[j];
            }
            out[i] = (float) sum;
        }
    }
}
