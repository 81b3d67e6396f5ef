package dev.cairn.embeddings;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;

/**
 * Content-addressed store of vectors: a vector is found by the model that made it and the SHA-256
 * of the exact text that was embedded, so the same text is never embedded twice. Implementations
 * are thread-safe.
 */
public interface EmbeddingCache extends AutoCloseable {

    /**
     * Identifies one vector.
     *
     * @param model the model identifier plus input kind, e.g. {@code bge-small-en-v1.5/query}
     * @param sha256 lower-case hex SHA-256 of the UTF-8 text
     */
    record Key(String model, String sha256) {
        public Key {
            if (model == null || model.isBlank()) {
                throw new IllegalArgumentException(
                        "illegal model: '" + model + "', must not be blank");
            }
            if (sha256 == null || !sha256.matches("[0-9a-f]{64}")) {
                throw new IllegalArgumentException(
                        "illegal sha256: '" + sha256 + "', must be 64 lower-case hex digits");
            }
        }

        /** The key of {@code text} embedded by {@code model}. */
        public static Key of(String model, String text) {
            if (text == null) {
                throw new IllegalArgumentException("illegal text: null");
            }
            try {
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                return new Key(
                        model,
                        HexFormat.of()
                                .formatHex(sha.digest(text.getBytes(StandardCharsets.UTF_8))));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("JDK without SHA-256", e);
            }
        }
    }

    /** The cached vectors of those {@code keys} that are present; absent keys are left out. */
    Map<Key, float[]> getAll(Collection<Key> keys);

    /** Stores vectors, replacing any under the same key. */
    void putAll(Map<Key, float[]> vectors);

    /** Number of cached vectors. */
    long size();

    @Override
    void close();

    /** An unbounded cache in this JVM's heap. */
    static EmbeddingCache inMemory() {
        return new InMemoryEmbeddingCache();
    }

    /**
     * A cache persisted in the SQLite file {@code file} (created with its parent directories if
     * missing), e.g. {@code <dataDir>/embedding-cache.db}.
     */
    static EmbeddingCache sqlite(Path file) {
        return SqliteEmbeddingCache.open(file);
    }
}
