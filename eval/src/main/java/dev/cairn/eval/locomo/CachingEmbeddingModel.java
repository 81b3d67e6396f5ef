package dev.cairn.eval.locomo;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.embeddings.TokenCounter;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An evaluation helper: a model whose vectors are remembered in a file keyed by model id, kind
 * (query or document) and SHA-256 of the text, so repeated evaluation runs (tuning) embed each text
 * once. The file is read at open and rewritten at close. Thread-safe; it does not close the wrapped
 * model.
 */
public final class CachingEmbeddingModel implements EmbeddingModel {

    private final EmbeddingModel model;
    private final Path file;
    private final Map<String, float[]> cache = new ConcurrentHashMap<>();
    private volatile boolean dirty;

    private CachingEmbeddingModel(EmbeddingModel model, Path file) {
        this.model = Objects.requireNonNull(model, "model");
        this.file = Objects.requireNonNull(file, "file");
    }

    /** Wraps {@code model}, loading {@code file} when it exists. */
    public static CachingEmbeddingModel open(EmbeddingModel model, Path file) {
        CachingEmbeddingModel c = new CachingEmbeddingModel(model, file);
        if (Files.isRegularFile(file)) {
            try (DataInputStream in =
                    new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
                int n = in.readInt();
                for (int i = 0; i < n; i++) {
                    String key = in.readUTF();
                    float[] v = new float[in.readInt()];
                    for (int j = 0; j < v.length; j++) {
                        v[j] = in.readFloat();
                    }
                    c.cache.put(key, v);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read embedding cache " + file, e);
            }
        }
        return c;
    }

    @Override
    public String id() {
        return model.id();
    }

    @Override
    public int dimensions() {
        return model.dimensions();
    }

    @Override
    public int maxTokens() {
        return model.maxTokens();
    }

    @Override
    public List<float[]> embedQueries(List<String> texts) {
        return cached("q", texts, true);
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return cached("d", texts, false);
    }

    private List<float[]> cached(String kind, List<String> texts, boolean queries) {
        List<String> keys = texts.stream().map(t -> key(kind, t)).toList();
        List<String> missing = new ArrayList<>();
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            if (!cache.containsKey(keys.get(i))) {
                missing.add(texts.get(i));
                at.add(i);
            }
        }
        if (!missing.isEmpty()) {
            List<float[]> fresh =
                    queries ? model.embedQueries(missing) : model.embedDocuments(missing);
            for (int i = 0; i < fresh.size(); i++) {
                cache.put(keys.get(at.get(i)), fresh.get(i));
            }
            dirty = true;
        }
        return keys.stream().map(k -> cache.get(k).clone()).toList();
    }

    private String key(String kind, String text) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return model.id()
                    + "|"
                    + kind
                    + "|"
                    + HexFormat.of().formatHex(sha.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    @Override
    public TokenCounter tokenCounter() {
        return model.tokenCounter();
    }

    /** Writes the cache file when something new was embedded. */
    @Override
    public void close() {
        if (!dirty) {
            return;
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            try (DataOutputStream out =
                    new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp)))) {
                out.writeInt(cache.size());
                for (Map.Entry<String, float[]> e : cache.entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeInt(e.getValue().length);
                    for (float f : e.getValue()) {
                        out.writeFloat(f);
                    }
                }
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write embedding cache " + file, e);
        }
    }
}
