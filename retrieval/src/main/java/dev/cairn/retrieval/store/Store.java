package dev.cairn.retrieval.store;

import java.util.Optional;

/**
 * The system of record. Truth lives here; Lucene indexes and in-memory graphs are derived from it
 * and catch up through its change sequence. Every method takes the namespace it works in; no method
 * reads across namespaces. Implementations are thread-safe.
 */
public interface Store extends AutoCloseable {

    /** Which backend this is. */
    Kind kind();

    /** Checks the store answers; throws {@link IllegalStateException} with the reason when not. */
    void ping();

    /** Creates a namespace; {@link IllegalStateException} when it exists. */
    Namespace createNamespace(String name, String description);

    Optional<Namespace> namespace(String name);

    Page<Namespace> namespaces(PageRequest page);

    /** Deletes a namespace and everything in it; false when it did not exist. */
    boolean deleteNamespace(String name);

    @Override
    void close();

    /** Storage backends. */
    enum Kind {
        EMBEDDED,
        POSTGRES
    }
}
