package dev.cairn.retrieval.dense;

import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.StoredChunk;
import dev.cairn.store.Store;
import java.util.List;

/** Nearest chunks by cosine similarity. Implementations are thread-safe. */
public interface DenseIndex {

    /** The {@code k} closest chunks of the namespace, best first, ties by chunk id. */
    List<DenseHit> search(String namespace, float[] query, int k);

    /** Replaces every vector of the document with those of {@code chunks}. */
    void replaceDocument(String namespace, String documentId, List<StoredChunk> chunks);

    /** Drops every vector of the document. */
    void removeDocument(String namespace, String documentId);

    /** Drops every vector of the namespace. */
    void removeNamespace(String namespace);

    /** Forgets every namespace (an in-memory index reloads each from the store on next use). */
    void removeAll();

    /**
     * PostgreSQL's own vector search over the chunks table (pgvector); it is always current, so the
     * update methods do nothing.
     *
     * @throws IllegalArgumentException when {@code store} is not PostgreSQL
     */
    static DenseIndex pgvector(Store store, DocumentRepository documents, DenseOptions options) {
        return new PgvectorDenseIndex(store, documents, options);
    }

    /**
     * The embedded store's search: exact in memory below {@code exactSearchThreshold} embedded
     * chunks per namespace, Lucene HNSW at or above it (or as {@code options} force).
     */
    static DenseIndex inMemory(
            DocumentRepository documents, DenseOptions options, int exactSearchThreshold) {
        return new SizeAwareDenseIndex(documents, options, exactSearchThreshold);
    }
}
