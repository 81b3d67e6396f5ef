package dev.cairn.retrieval.dense;

import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.StoredChunk;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The embedded store's dense search: exact while a namespace is small, Lucene HNSW once it is not.
 * Below {@link dev.cairn.store.StoreConfig#exactSearchThreshold()} chunks (20k by default) a scan
 * of a flat matrix is both exact and faster than walking a graph; above it the scan grows linearly
 * and HNSW does not. {@link DenseOptions.Strategy#EXACT} and {@link
 * DenseOptions.Strategy#APPROXIMATE} force one side.
 *
 * <p>The choice for {@code AUTO} is made per namespace when it is first searched (the store counts
 * its embedded chunks up to the threshold, as PostgreSQL's own choice does) and kept for the life
 * of the process: a namespace that grows past the threshold switches at the next start. Both sides
 * receive every update, but each only holds the namespaces it has loaded. Thread-safe.
 */
final class SizeAwareDenseIndex implements DenseIndex {

    private final DocumentRepository documents;
    private final DenseOptions options;
    private final int threshold;
    private final ExactDenseIndex exact;
    private final LuceneHnswDenseIndex approximate;
    private final Map<String, Boolean> useApproximate = new ConcurrentHashMap<>();

    SizeAwareDenseIndex(DocumentRepository documents, DenseOptions options, int threshold) {
        this.documents = documents;
        this.options = options;
        this.threshold = threshold;
        this.exact = new ExactDenseIndex(documents);
        this.approximate = new LuceneHnswDenseIndex(documents, options.efSearch());
    }

    @Override
    public List<DenseHit> search(String namespace, float[] query, int k) {
        return approximate(namespace)
                ? approximate.search(namespace, query, k)
                : exact.search(namespace, query, k);
    }

    /** Whether searches of this namespace go to HNSW. */
    boolean approximate(String namespace) {
        return switch (options.strategy()) {
            case EXACT -> false;
            case APPROXIMATE -> true;
            case AUTO ->
                    useApproximate.computeIfAbsent(
                            namespace, ns -> documents.hasEmbeddedChunks(ns, threshold));
        };
    }

    @Override
    public void replaceDocument(String namespace, String documentId, List<StoredChunk> chunks) {
        exact.replaceDocument(namespace, documentId, chunks);
        approximate.replaceDocument(namespace, documentId, chunks);
    }

    @Override
    public void removeDocument(String namespace, String documentId) {
        exact.removeDocument(namespace, documentId);
        approximate.removeDocument(namespace, documentId);
    }

    @Override
    public void removeNamespace(String namespace) {
        useApproximate.remove(namespace);
        exact.removeNamespace(namespace);
        approximate.removeNamespace(namespace);
    }

    @Override
    public void removeAll() {
        useApproximate.clear();
        exact.removeAll();
        approximate.removeAll();
    }
}
