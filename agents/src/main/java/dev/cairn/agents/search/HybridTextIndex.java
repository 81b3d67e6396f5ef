package dev.cairn.agents.search;

import dev.cairn.embeddings.EmbeddingModel;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

/**
 * Hybrid search over short texts, one in-memory index per namespace (see the package documentation
 * for the formula). A namespace is loaded from its source of truth on the first search; a {@link
 * TextIndexFollower} calls {@link #upsert}/{@link #remove} for committed changes, which only touch
 * loaded namespaces (an unloaded one reads the committed rows when it loads). Thread-safe.
 */
public interface HybridTextIndex extends AutoCloseable {

    /** BM25 only. */
    static HybridTextIndex lexicalOnly() {
        return new InMemoryHybridTextIndex(null);
    }

    /** BM25 and cosine over {@code model}'s vectors; the caller keeps owning the model. */
    static HybridTextIndex withEmbeddings(EmbeddingModel model) {
        return new InMemoryHybridTextIndex(java.util.Objects.requireNonNull(model, "model"));
    }

    /** Whether a dense signal takes part. */
    boolean hybrid();

    /**
     * The best {@code limit} entries for {@code query}, best first, ties by id.
     *
     * @param loader all entries of the namespace, called when it is not loaded yet
     */
    List<TextHit> search(
            String namespace, String query, int limit, Supplier<Collection<TextEntry>> loader);

    /** Adds or replaces entries of a loaded namespace. */
    void upsert(String namespace, Collection<TextEntry> entries);

    /** Removes entries of a loaded namespace. */
    void remove(String namespace, Collection<String> ids);

    /** Forgets a namespace; the next search reloads it. */
    void invalidate(String namespace);

    /** Forgets every namespace. */
    void invalidateAll();

    @Override
    void close();
}
