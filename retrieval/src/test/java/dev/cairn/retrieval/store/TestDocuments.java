package dev.cairn.retrieval.store;

import dev.cairn.store.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Documents, chunks and vectors for the tests of the documents tables and of dense search. */
public final class TestDocuments {

    /** Small vectors keep the tests fast; the behaviour does not depend on the dimension. */
    public static final int DIMS = 16;

    private TestDocuments() {}

    public static DocumentDraft doc(String id, String title) {
        return DocumentDraft.of(id, title, DocumentFormat.MARKDOWN, "content of " + id);
    }

    /** {@code n} chunks; chunk i has the vector {@link #vector(int) vector(i)} when embedded. */
    public static List<ChunkDraft> chunks(int n, boolean embedded) {
        List<ChunkDraft> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(
                    new ChunkDraft(
                            i,
                            List.of("Doc", "Section " + i),
                            "chunk text " + i,
                            3,
                            embedded ? vector(i) : new float[0],
                            embedded ? "test-model" : ""));
        }
        return out;
    }

    /** A distinct non-zero vector of {@link #DIMS} per i. */
    public static float[] vector(int i) {
        float[] v = new float[DIMS];
        v[i % DIMS] = 1f;
        v[(i + 1) % DIMS] = 0.5f + (i % 7) * 0.1f;
        return v;
    }

    public static float[] randomVector(Random random) {
        float[] v = new float[DIMS];
        for (int i = 0; i < DIMS; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }

    /**
     * Creates namespace {@code ns} with {@code docs} documents of {@code perDoc} random chunks;
     * answers every chunk's vector by chunk id.
     */
    public static Map<String, float[]> fillRandom(
            Store store,
            DocumentRepository documents,
            String ns,
            int docs,
            int perDoc,
            Random random) {
        store.createNamespace(ns, "");
        Map<String, float[]> vectors = new LinkedHashMap<>();
        for (int d = 0; d < docs; d++) {
            String id = "d" + d;
            List<ChunkDraft> chunks = new ArrayList<>();
            for (int i = 0; i < perDoc; i++) {
                float[] v = randomVector(random);
                chunks.add(new ChunkDraft(i, List.of(), "t", 1, v, "test-model"));
                vectors.put(StoredChunk.chunkId(id, i), v);
            }
            documents.replaceDocument(ns, doc(id, "T" + d), chunks);
        }
        return vectors;
    }
}
