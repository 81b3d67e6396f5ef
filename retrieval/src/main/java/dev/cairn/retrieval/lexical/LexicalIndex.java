package dev.cairn.retrieval.lexical;

import java.nio.file.Path;
import java.util.List;

/**
 * A BM25 index of chunks, one Lucene index per namespace.
 *
 * <p>The index is derived data: the SQL store is the truth and the index catches up from the
 * store's change sequence ({@link #lastAppliedSeq()}, kept in the Lucene commit user data). Writes
 * are visible to the next {@link #search} of the same instance (near-real-time); they are durable
 * after {@link #commit()}.
 *
 * <p>Implementations are thread-safe.
 */
public interface LexicalIndex extends AutoCloseable {

    /**
     * Opens (or creates) an index on disk; each namespace lives in the sub-directory of its name.
     *
     * @throws java.io.UncheckedIOException when the directory cannot be opened
     */
    static LexicalIndex open(Path dir, LexicalConfig config) {
        return LuceneLexicalIndex.onDisk(dir, config);
    }

    /** A new index held in memory (for tests and small, rebuildable data). */
    static LexicalIndex inMemory(LexicalConfig config) {
        return LuceneLexicalIndex.inMemory(config);
    }

    /** The settings this index was opened with. */
    LexicalConfig config();

    /**
     * Replaces all chunks of a document with {@code chunks} in one atomic Lucene operation (delete
     * by document-id term and add), so no reader ever sees a mix of old and new chunks. An empty
     * list deletes the document.
     *
     * @throws IllegalArgumentException for a bad namespace or document id, or duplicate chunk ids
     */
    void upsertDocument(String namespace, String documentId, List<IndexedChunk> chunks);

    /** Deletes all chunks of a document; does nothing when there are none. */
    void deleteDocument(String namespace, String documentId);

    /** Drops a namespace's index entirely; does nothing when there is none. */
    void deleteNamespace(String namespace);

    /**
     * Rewrites the namespace's segments that still hold deleted chunks and commits, so no file of
     * the index keeps a deleted chunk's terms (a forgotten user's words); nothing when the
     * namespace has no index.
     */
    void purgeDeleted(String namespace);

    /** Deletes every namespace's documents and sets {@link #lastAppliedSeq()} to 0. */
    void deleteAll();

    /**
     * Best {@code topN} chunks for free user text, best first, ties broken by chunk id ascending.
     * Never throws on the content of {@code query}: it is analysed, never parsed as syntax. A query
     * without indexable terms, or an unknown namespace, gives an empty list.
     *
     * @param explain whether to attach Lucene's explanation of each score (slow)
     */
    List<LexicalHit> search(String namespace, String query, int topN, boolean explain);

    /** Number of chunks in a namespace (as of the last refresh). */
    int chunkCount(String namespace);

    /** Makes all writes so far durable, together with {@link #lastAppliedSeq()}. */
    void commit();

    /**
     * The last store change sequence applied to this index: the value committed last, or the value
     * set since. 0 for a new index.
     */
    long lastAppliedSeq();

    /** Records the store change sequence applied so far; durable at the next {@link #commit()}. */
    void setLastAppliedSeq(long seq);

    /** Closes the index without committing. */
    @Override
    void close();
}
