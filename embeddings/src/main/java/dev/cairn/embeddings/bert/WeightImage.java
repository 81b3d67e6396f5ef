package dev.cairn.embeddings.bert;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Named tensors in direct memory, each starting on a {@value #ALIGNMENT}-byte boundary, in the
 * machine's byte order: what {@link BertWeights} converts from an ONNX file, what {@link
 * WeightCacheFile} writes to disk and reads back, and what the encoder's tensors are made of.
 *
 * <p>{@link #array} hands a tensor's bytes to PyTorch without copying them (DJL wraps a direct
 * buffer with {@code from_blob} and keeps the buffer reachable from the array), so whether the
 * image came from a conversion or from the cache, every weight sits at the same alignment and the
 * forward pass computes bit for bit the same vectors. {@value #ALIGNMENT} bytes is what PyTorch's
 * own CPU allocator aligns to.
 *
 * <p>The memory belongs to the image and is freed by {@link #close}, not by the garbage collector:
 * direct buffers are freed only when collected, and a heap with nothing to collect let a process
 * that loads models one after another (a test suite) run out of direct memory. Close it only when
 * no tensor made by {@link #array} is used any more.
 *
 * <p>Entries keep their insertion order. Not thread-safe while entries are added; read-only and
 * safe to share once built (the buffers handed out are duplicates).
 */
final class WeightImage implements AutoCloseable {

    /** Start of every tensor's bytes: a cache line, and PyTorch's CPU allocator alignment. */
    static final int ALIGNMENT = 64;

    /** Element types an image holds. */
    enum Type {
        FLOAT32(DataType.FLOAT32, Float.BYTES),
        INT8(DataType.INT8, Byte.BYTES);

        final DataType djl;
        final int bytes;

        Type(DataType djl, int bytes) {
            this.djl = djl;
            this.bytes = bytes;
        }
    }

    /**
     * One tensor.
     *
     * @param name its name, unique in the image
     * @param type element type
     * @param shape dimensions, row-major
     * @param data exactly its bytes (position 0), direct, aligned, machine byte order
     */
    record Entry(String name, Type type, long[] shape, ByteBuffer data) {
        Entry {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("illegal name: '" + name + "'");
            }
            shape = shape.clone();
            long bytes = elements(shape) * type.bytes;
            if (!data.isDirect() || data.position() != 0 || data.remaining() != bytes) {
                throw new IllegalArgumentException(
                        "tensor "
                                + name
                                + ": "
                                + data.remaining()
                                + " bytes for a "
                                + type
                                + " shape of "
                                + bytes
                                + " bytes, must be exactly that, direct, from position 0");
            }
            data = data.duplicate().order(ByteOrder.nativeOrder());
        }

        @Override
        public long[] shape() {
            return shape.clone();
        }

        @Override
        public ByteBuffer data() {
            return data.duplicate().order(ByteOrder.nativeOrder());
        }

        long bytes() {
            return data.remaining();
        }
    }

    private final Map<String, Entry> entries = new LinkedHashMap<>();

    private final Arena arena = Arena.ofShared();

    /** Adds a float32 tensor, copying {@code values}. */
    void putFloats(String name, long[] shape, float[] values) {
        ByteBuffer data = allocate((long) values.length * Float.BYTES);
        data.asFloatBuffer().put(values);
        put(new Entry(name, Type.FLOAT32, shape, data));
    }

    /** Adds an int8 tensor, copying {@code values}. */
    void putBytes(String name, long[] shape, byte[] values) {
        ByteBuffer data = allocate(values.length);
        data.put(0, values);
        put(new Entry(name, Type.INT8, shape, data));
    }

    /** Adds an entry whose bytes are already in place (a slice of a file read whole). */
    void put(Entry entry) {
        if (entry.data.alignmentOffset(0, ALIGNMENT) != 0) {
            throw new IllegalArgumentException(
                    "tensor " + entry.name() + " does not start on a " + ALIGNMENT + "-byte line");
        }
        if (entries.putIfAbsent(entry.name(), entry) != null) {
            throw new IllegalArgumentException("tensor " + entry.name() + " twice");
        }
    }

    Map<String, Entry> entries() {
        return Collections.unmodifiableMap(entries);
    }

    boolean contains(String name) {
        return entries.containsKey(name);
    }

    Entry require(String name) {
        Entry e = entries.get(name);
        if (e == null) {
            throw new IllegalStateException("converted weights have no tensor " + name);
        }
        return e;
    }

    /** The tensor as an array of {@code manager}, on the image's memory (no copy). */
    NDArray array(NDManager manager, String name) {
        Entry e = require(name);
        return manager.create(e.data(), new Shape(e.shape()), e.type().djl);
    }

    /** A float32 tensor's values, copied into a Java array. */
    float[] floats(String name) {
        Entry e = require(name);
        if (e.type() != Type.FLOAT32) {
            throw new IllegalArgumentException(
                    "tensor " + name + " is " + e.type() + ", not float32");
        }
        var values = e.data().asFloatBuffer();
        float[] copy = new float[values.remaining()];
        values.get(copy);
        return copy;
    }

    /** Bytes of all tensors, without alignment padding. */
    long bytes() {
        long n = 0;
        for (Entry e : entries.values()) {
            n += e.bytes();
        }
        return n;
    }

    static long elements(long[] shape) {
        long n = 1;
        for (long d : shape) {
            if (d < 0) {
                throw new IllegalArgumentException("illegal dimension: " + d + ", must be >= 0");
            }
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    /**
     * Zeroed direct memory of this image starting on an {@value #ALIGNMENT}-byte boundary, freed
     * with the image.
     */
    ByteBuffer allocate(long bytes) {
        requireOneBuffer(bytes);
        return arena.allocate(Math.max(1, bytes), ALIGNMENT)
                .asByteBuffer()
                .limit((int) bytes)
                .slice()
                .order(ByteOrder.nativeOrder());
    }

    /**
     * {@code bytes} of {@code channel} from {@code position}, mapped read-only into this image's
     * memory and unmapped with the image: the pages are the file's cached pages, shared by every
     * process that maps the file, so a load neither zeroes nor copies 150 MB. Nothing writes
     * weights: the forward passes only read them. The file starts its data on a boundary of {@value
     * #ALIGNMENT} bytes, so its tensors are aligned in the mapping ({@link #put} checks each).
     */
    ByteBuffer map(FileChannel channel, long position, long bytes) throws IOException {
        requireOneBuffer(bytes);
        return channel.map(FileChannel.MapMode.READ_ONLY, position, bytes, arena)
                .asByteBuffer()
                .order(ByteOrder.nativeOrder());
    }

    private static void requireOneBuffer(long bytes) {
        if (bytes < 0 || bytes > Integer.MAX_VALUE - 2 * ALIGNMENT) {
            throw new IllegalArgumentException(
                    "illegal tensor size: " + bytes + " bytes, must fit one buffer");
        }
    }

    /** Frees the image's memory; its entries and the tensors made from them must be unused. */
    @Override
    public void close() {
        arena.close();
    }
}
