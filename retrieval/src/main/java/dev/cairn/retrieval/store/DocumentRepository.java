package dev.cairn.retrieval.store;

import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * Documents and their chunks in the store (retrieval's tables, as memories are memory's). Every
 * method works inside one namespace; reads of a namespace that does not exist answer empty.
 * Implementations are thread-safe; the store's transactions make each write atomic, with its {@link
 * dev.cairn.store.Change.Kind#DOCUMENT} change in the same transaction.
 */
public interface DocumentRepository {

    /** The repository over {@code store}'s SQL database (either dialect). */
    static DocumentRepository over(Store store) {
        return new SqlDocumentRepository(store.sql(), store.config().dimensions());
    }

    /**
     * Writes a document and its chunks in one transaction, replacing the previous version and all
     * its chunks; appends a {@link dev.cairn.store.Change.Kind#DOCUMENT} UPSERT to the change
     * sequence. A failure (e.g. an embedding of the wrong dimension, two chunks with one ordinal)
     * leaves the previous version untouched.
     *
     * @return the stored document: version 1 when new, else the previous version + 1
     * @throws java.util.NoSuchElementException when the namespace does not exist
     * @throws IllegalArgumentException when a chunk is invalid for this store
     */
    default StoredDocument replaceDocument(
            String namespace, DocumentDraft document, List<ChunkDraft> chunks) {
        return replaceDocuments(
                        namespace,
                        List.of(new DocumentWrite(document, chunks, "")),
                        AlongsideWrite.NONE)
                .getFirst();
    }

    /**
     * Writes documents and their chunks in one transaction, each as {@link #replaceDocument} would
     * (a new version, the old chunks gone, a DOCUMENT UPSERT), and runs {@code alongside} for each
     * document on the same connection, so rows kept beside a document (its entity declarations)
     * commit or roll back with it. A failure anywhere leaves every document of the batch as it was.
     *
     * @return the stored documents, in the order of {@code writes}
     * @throws java.util.NoSuchElementException when the namespace does not exist
     * @throws IllegalArgumentException when a chunk is invalid for this store
     */
    List<StoredDocument> replaceDocuments(
            String namespace, List<DocumentWrite> writes, AlongsideWrite alongside);

    /**
     * Those of {@code documentIds} that are stored with a non-empty {@link
     * DocumentWrite#ingestKey() ingest key}, by document id: what a bulk ingest compares its input
     * with to skip documents it already stored.
     */
    Map<String, IngestedDocument> ingestedDocuments(
            String namespace, Collection<String> documentIds);

    Optional<StoredDocument> document(String namespace, String id);

    /**
     * Documents by id.
     *
     * @param titleQuery case-insensitive substring of the title; empty for all documents
     */
    Page<StoredDocument> documents(String namespace, PageRequest page, String titleQuery);

    /** The chunks of a document in ordinal order; empty when there is no such document. */
    List<StoredChunk> chunks(String namespace, String documentId);

    /** The chunks with these ids, in the order of {@code chunkIds}; unknown ids are skipped. */
    List<StoredChunk> chunks(String namespace, Collection<String> chunkIds);

    /**
     * Deletes a document and its chunks and appends a DELETE to the change sequence; false when it
     * did not exist.
     *
     * @throws java.util.NoSuchElementException when the namespace does not exist
     */
    boolean deleteDocument(String namespace, String id);

    /** How many chunks the namespace holds. */
    long chunkCount(String namespace);

    /**
     * Whether the namespace has at least {@code atLeast} chunks with an embedding; counts no
     * further than that (what {@link dev.cairn.retrieval.dense.DenseOptions.Strategy#AUTO} decides
     * on).
     */
    boolean hasEmbeddedChunks(String namespace, long atLeast);

    /**
     * Streams (chunkId, vector) of every embedded chunk of the namespace, in chunk id order, to
     * build an in-process vector index. The vectors are fresh arrays the consumer may keep. The
     * consumer must not call back into the repository.
     */
    void forEachEmbedding(String namespace, BiConsumer<String, float[]> consumer);

    /** Rows written beside a document in the transaction of a {@link #replaceDocuments} batch. */
    @FunctionalInterface
    interface AlongsideWrite {

        /** Writes nothing beside the documents. */
        AlongsideWrite NONE = (c, write) -> {};

        void write(java.sql.Connection c, DocumentWrite write) throws java.sql.SQLException;
    }
}
