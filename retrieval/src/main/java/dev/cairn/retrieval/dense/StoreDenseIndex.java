package dev.cairn.retrieval.dense;

import dev.cairn.store.DenseHit;
import dev.cairn.store.DenseOptions;
import dev.cairn.store.Store;
import dev.cairn.store.StoredChunk;
import java.util.List;

/** Delegates to {@link Store#denseSearch}. Thread-safe. */
final class StoreDenseIndex implements DenseIndex {

    private final Store store;
    private final DenseOptions options;

    StoreDenseIndex(Store store, DenseOptions options) {
        this.store = store;
        this.options = options;
    }

    @Override
    public List<DenseHit> search(String namespace, float[] query, int k) {
        return store.denseSearch(namespace, query, k, options);
    }

    @Override
    public void replaceDocument(String namespace, String documentId, List<StoredChunk> chunks) {
        // the store's rows are the index
    }

    @Override
    public void removeDocument(String namespace, String documentId) {
        // the store's rows are the index
    }

    @Override
    public void removeNamespace(String namespace) {
        // the store's rows are the index
    }

    @Override
    public void removeAll() {
        // the store's rows are the index
    }
}
