package dev.cairn.embeddings.bert;

import ai.onnxruntime.OrtEnvironment;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ONNX Runtime's vectors of token id sequences, kept on disk between test runs under {@code
 * ~/.cache/cairn/onnxruntime-references} (or {@code cairn.test.reference-cache}). They are the
 * reference the encoder is checked against, not the code under test: a function of the ONNX file's
 * bytes, ONNX Runtime's build and the ids, all three in the key, so a changed model file, a new
 * ONNX Runtime or new texts compute afresh, and the parity assertions compare every text as before.
 * Computing them is about half of {@link OnnxRuntimeParityTest}'s time. A file cut short by a
 * killed run is read up to its last whole entry. Thread-safe.
 */
final class OrtReferenceCache {

    /** What a reference is computed from when the cache lacks it. */
    interface Compute {
        float[] vector() throws Exception;
    }

    private final Path file;
    private final Map<String, float[]> known = new ConcurrentHashMap<>();

    private OrtReferenceCache(Path file) {
        this.file = file;
        read();
    }

    /** The cache of {@code onnxResource}'s references under this ONNX Runtime. */
    static OrtReferenceCache of(String onnxResource) {
        String dir = System.getProperty("cairn.test.reference-cache", "");
        Path root =
                dir.isBlank()
                        ? Path.of(System.getProperty("user.home"), ".cache", "cairn")
                                .resolve("onnxruntime-references")
                        : Path.of(dir);
        String name =
                onnxResource.replaceAll("[^A-Za-z0-9.-]", "_")
                        + "-"
                        + sha256Hex(resource(onnxResource)).substring(0, 16)
                        + "-"
                        + runtimeBuild()
                        + ".bin";
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new OrtReferenceCache(root.resolve(name));
    }

    /** The reference of {@code ids}: from the cache, else computed and kept. */
    float[] get(long[] ids, Compute compute) throws Exception {
        String key = key(ids);
        float[] vector = known.get(key);
        if (vector == null) {
            vector = compute.vector();
            known.put(key, vector);
            append(key, vector);
        }
        return vector;
    }

    private void read() {
        if (!Files.isRegularFile(file)) {
            return;
        }
        try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
            while (true) {
                byte[] key = new byte[32];
                in.readFully(key);
                int n = in.readInt();
                if (n < 0 || n > 100_000) {
                    return; // not an entry: a damaged file keeps what came before
                }
                float[] v = new float[n];
                for (int i = 0; i < n; i++) {
                    v[i] = in.readFloat();
                }
                known.put(HexFormat.of().formatHex(key), v);
            }
        } catch (EOFException cutShort) {
            // the entries before it are whole
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private synchronized void append(String key, float[] vector) throws IOException {
        ByteBuffer entry = ByteBuffer.allocate(32 + 4 + 4 * vector.length);
        entry.put(HexFormat.of().parseHex(key)).putInt(vector.length);
        for (float f : vector) {
            entry.putFloat(f);
        }
        try (OutputStream out =
                        Files.newOutputStream(
                                file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                DataOutputStream data = new DataOutputStream(out)) {
            data.write(entry.array());
        }
    }

    private static String key(long[] ids) {
        ByteBuffer bytes = ByteBuffer.allocate(8 * ids.length);
        for (long id : ids) {
            bytes.putLong(id);
        }
        return sha256Hex(bytes.array());
    }

    /** The ONNX Runtime jar's file name (it carries the version) and size. */
    private static String runtimeBuild() {
        try {
            Path jar =
                    Path.of(
                            OrtEnvironment.class
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI());
            return jar.getFileName().toString().replace(".jar", "") + "-" + Files.size(jar);
        } catch (Exception e) {
            throw new IllegalStateException("cannot tell which ONNX Runtime this is", e);
        }
    }

    /** The bytes of a class-path resource, such as a model's ONNX file. */
    static byte[] resource(String name) {
        try (InputStream in = OrtReferenceCache.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("no resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
