package dev.cairn.retrieval.dense;

import dev.cairn.store.DenseHit;
import dev.cairn.store.Store;
import dev.cairn.store.StoredChunk;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.util.VectorUtil;

/**
 * Exact cosine search over vectors held in memory, one array of rows per namespace. Updates go to a
 * per-document map and mark the namespace dirty; the next search rebuilds an immutable snapshot, so
 * a bulk ingest costs one rebuild, not one per document. Thread-safe: searches read a snapshot,
 * updates and rebuilds lock the namespace.
 */
final class ExactDenseIndex implements DenseIndex {

    private final Store store;
    private final Map<String, NamespaceVectors> namespaces = new ConcurrentHashMap<>();

    ExactDenseIndex(Store store) {
        this.store = store;
    }

    @Override
    public List<DenseHit> search(String namespace, float[] query, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("illegal k: " + k + ", must be >= 1");
        }
        return vectors(namespace).snapshot().search(query, k);
    }

    @Override
    public void replaceDocument(String namespace, String documentId, List<StoredChunk> chunks) {
        NamespaceVectors vectors = namespaces.get(namespace);
        if (vectors == null) {
            return; // not loaded yet: the first search loads it from the store
        }
        vectors.replace(documentId, chunks);
    }

    @Override
    public void removeDocument(String namespace, String documentId) {
        NamespaceVectors vectors = namespaces.get(namespace);
        if (vectors != null) {
            vectors.replace(documentId, List.of());
        }
    }

    @Override
    public void removeNamespace(String namespace) {
        namespaces.remove(namespace);
    }

    private NamespaceVectors vectors(String namespace) {
        return namespaces.computeIfAbsent(
                namespace,
                ns -> {
                    NamespaceVectors loaded = new NamespaceVectors();
                    store.forEachEmbedding(ns, loaded::put);
                    return loaded;
                });
    }

    /** The vectors of one namespace by document, and the rows built from them. */
    private static final class NamespaceVectors {
        private final Map<String, Map<String, float[]>> byDocument = new TreeMap<>();
        private volatile Snapshot snapshot;

        synchronized void put(String chunkId, float[] vector) {
            byDocument
                    .computeIfAbsent(StoredChunk.documentIdOf(chunkId), d -> new TreeMap<>())
                    .put(chunkId, vector);
            snapshot = null;
        }

        synchronized void replace(String documentId, List<StoredChunk> chunks) {
            byDocument.remove(documentId);
            for (StoredChunk chunk : chunks) {
                float[] vector = chunk.embedding();
                if (vector.length > 0) {
                    byDocument
                            .computeIfAbsent(documentId, d -> new TreeMap<>())
                            .put(chunk.id(), vector);
                }
            }
            snapshot = null;
        }

        Snapshot snapshot() {
            Snapshot current = snapshot;
            if (current != null) {
                return current;
            }
            synchronized (this) {
                if (snapshot == null) {
                    snapshot = Snapshot.of(byDocument);
                }
                return snapshot;
            }
        }
    }

    /** Immutable rows of vectors and their chunk ids. */
    private record Snapshot(String[] ids, float[][] rows, int dimensions) {

        static Snapshot of(Map<String, Map<String, float[]>> byDocument) {
            List<String> ids = new ArrayList<>();
            List<float[]> rows = new ArrayList<>();
            byDocument
                    .values()
                    .forEach(
                            chunks ->
                                    chunks.forEach(
                                            (id, v) -> {
                                                ids.add(id);
                                                rows.add(v);
                                            }));
            int dims = rows.isEmpty() ? 0 : rows.getFirst().length;
            return new Snapshot(ids.toArray(String[]::new), rows.toArray(float[][]::new), dims);
        }

        List<DenseHit> search(float[] query, int k) {
            if (ids.length == 0) {
                return List.of();
            }
            if (query.length != dimensions) {
                throw new IllegalArgumentException(
                        "illegal query dimensions: " + query.length + ", must be " + dimensions);
            }
            Comparator<Scored> worstFirst =
                    Comparator.comparingDouble(Scored::score)
                            .thenComparing(Scored::id, Comparator.reverseOrder());
            PriorityQueue<Scored> top = new PriorityQueue<>(k + 1, worstFirst);
            for (int r = 0; r < ids.length; r++) {
                // Lucene's dot product: SIMD through the Vector API when the JVM has it.
                float dot = VectorUtil.dotProduct(rows[r], query);
                if (top.size() < k) {
                    top.add(new Scored(ids[r], dot));
                } else if (worstFirst.compare(new Scored(ids[r], dot), top.peek()) > 0) {
                    top.poll();
                    top.add(new Scored(ids[r], dot));
                }
            }
            List<Scored> best = new ArrayList<>(top);
            best.sort(worstFirst.reversed());
            return best.stream().map(s -> new DenseHit(s.id(), s.score())).toList();
        }
    }

    private record Scored(String id, double score) {}

    @Override
    public void removeAll() {
        namespaces.clear();
    }
}
