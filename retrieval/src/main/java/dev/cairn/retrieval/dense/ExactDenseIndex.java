package dev.cairn.retrieval.dense;

import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.StoredChunk;
import dev.cairn.store.vector.VectorHit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Exact cosine search over vectors held in memory, one list of rows per namespace, by the one exact
 * scan ({@link UnitVectors#scan()}). Updates go to a per-document map and mark the namespace dirty;
 * the next search rebuilds an immutable snapshot, so a bulk ingest costs one rebuild, not one per
 * document. Thread-safe: searches read a snapshot, updates and rebuilds lock the namespace.
 */
final class ExactDenseIndex implements DenseIndex {

    private final DocumentRepository documents;
    private final Map<String, NamespaceVectors> namespaces = new ConcurrentHashMap<>();

    ExactDenseIndex(DocumentRepository documents) {
        this.documents = documents;
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
                    documents.forEachEmbedding(ns, loaded::put);
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
    private record Snapshot(List<Row> rows, int dimensions) {

        static Snapshot of(Map<String, Map<String, float[]>> byDocument) {
            List<Row> rows = new ArrayList<>();
            byDocument
                    .values()
                    .forEach(chunks -> chunks.forEach((id, v) -> rows.add(new Row(id, v))));
            int dims = rows.isEmpty() ? 0 : rows.getFirst().vector().length;
            return new Snapshot(List.copyOf(rows), dims);
        }

        List<DenseHit> search(float[] query, int k) {
            if (rows.isEmpty()) {
                return List.of();
            }
            if (query.length != dimensions) {
                throw new IllegalArgumentException(
                        "illegal query dimensions: " + query.length + ", must be " + dimensions);
            }
            List<DenseHit> hits = new ArrayList<>(k);
            for (VectorHit hit : UnitVectors.scan().nearest(rows, Row::id, Row::vector, query, k)) {
                hits.add(new DenseHit(hit.id(), hit.score()));
            }
            return hits;
        }
    }

    private record Row(String id, float[] vector) {}

    @Override
    public void removeAll() {
        namespaces.clear();
    }
}
