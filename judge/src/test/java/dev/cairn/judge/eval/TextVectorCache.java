package dev.cairn.judge.eval;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.judge.SimilarityFunction;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The embedding similarity with one vector per distinct text, kept across calls and on disk, so
 * that an evaluation embeds every SciFact sentence once even when claims share abstracts, and a
 * second run embeds nothing. Same numbers as {@link SimilarityFunction#embedding}. Not thread-safe
 * for {@link #save}.
 */
final class TextVectorCache implements SimilarityFunction {

    private final EmbeddingModel model;
    private final Path file;
    private final Map<String, float[]> vectors = new ConcurrentHashMap<>();

    TextVectorCache(EmbeddingModel model, Path file) {
        this.model = model;
        this.file = file;
        if (Files.exists(file)) {
            try (DataInputStream in =
                    new DataInputStream(
                            new java.io.BufferedInputStream(Files.newInputStream(file)))) {
                int n = in.readInt();
                for (int i = 0; i < n; i++) {
                    String text = in.readUTF();
                    float[] v = new float[in.readInt()];
                    for (int k = 0; k < v.length; k++) {
                        v[k] = in.readFloat();
                    }
                    vectors.put(text, v);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    int size() {
        return vectors.size();
    }

    void save() {
        try {
            Files.createDirectories(file.getParent());
            try (DataOutputStream out =
                    new DataOutputStream(
                            new java.io.BufferedOutputStream(Files.newOutputStream(file)))) {
                Map<String, float[]> copy = Map.copyOf(vectors);
                out.writeInt(copy.size());
                for (var e : copy.entrySet()) {
                    out.writeUTF(e.getKey());
                    out.writeInt(e.getValue().length);
                    for (float f : e.getValue()) {
                        out.writeFloat(f);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String name() {
        return "embedding-" + model.id();
    }

    @Override
    public double[][] similarities(List<String> claims, List<String> passages) {
        Set<String> missing = new LinkedHashSet<>();
        for (String t : claims) {
            if (!vectors.containsKey(t)) {
                missing.add(t);
            }
        }
        for (String t : passages) {
            if (!vectors.containsKey(t)) {
                missing.add(t);
            }
        }
        if (!missing.isEmpty()) {
            List<String> todo = new ArrayList<>(missing);
            List<float[]> embedded = model.embedDocuments(todo);
            for (int i = 0; i < todo.size(); i++) {
                vectors.put(todo.get(i), embedded.get(i));
            }
        }
        double[][] out = new double[claims.size()][passages.size()];
        for (int i = 0; i < claims.size(); i++) {
            float[] c = vectors.get(claims.get(i));
            for (int j = 0; j < passages.size(); j++) {
                float[] p = vectors.get(passages.get(j));
                double dot = 0;
                for (int k = 0; k < c.length; k++) {
                    dot += (double) c[k] * p[k];
                }
                out[i][j] = Math.max(0.0, Math.min(1.0, dot));
            }
        }
        return out;
    }
}
