package dev.cairn.store;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The system of record. Truth lives here; Lucene indexes and in-memory graphs are derived from it
 * and catch up through its change sequence. The store itself keeps namespaces, the change sequence
 * the audit of forgotten users and the API tokens ({@link #tokens()}, which belong to no
 * namespace); each module keeps its own tables in it through {@link #sql()} (documents and chunks:
 * retrieval's {@code DocumentRepository}). Every other method takes the namespace it works in; no
 * method reads across namespaces (except {@link #changesSince}, which feeds derived indexes of all
 * namespaces). Implementations are thread-safe.
 *
 * <p>Writes into a namespace that does not exist throw {@link java.util.NoSuchElementException};
 * reads in one answer empty. Backend failures throw {@link StoreException}.
 */
public interface Store extends AutoCloseable {

    /**
     * Opens (creating when missing) the embedded store in {@code dataDir} with {@link
     * StoreConfig#defaults()}.
     */
    static Store embedded(Path dataDir) {
        return embedded(dataDir, StoreConfig.defaults());
    }

    /**
     * Opens (creating when missing) the embedded store: SQLite file {@code cairn.db} in {@code
     * dataDir}, WAL with synchronous=FULL, so an acknowledged write survives a crash; writes are
     * serialised, reads run concurrently. Applies pending schema migrations.
     */
    static Store embedded(Path dataDir, StoreConfig config) {
        return EmbeddedStore.open(dataDir, config);
    }

    /** Connects to PostgreSQL with pgvector with {@link StoreConfig#defaults()}. */
    static Store postgres(String jdbcUrl) {
        return postgres(jdbcUrl, StoreConfig.defaults());
    }

    /**
     * Connects to PostgreSQL (a pool of at most {@link StoreConfig#maxPoolSize()} connections) and
     * applies pending schema migrations, serialised across processes by an advisory lock. The
     * database needs the {@code vector} extension or the right to create it.
     */
    static Store postgres(String jdbcUrl, StoreConfig config) {
        return PostgresStore.open(jdbcUrl, config);
    }

    /** Which backend this is. */
    Kind kind();

    /** The configuration the store was opened with. */
    StoreConfig config();

    /** Checks the store answers; throws {@link IllegalStateException} with the reason when not. */
    void ping();

    /**
     * This database's identity: a random id drawn when its schema was created (migration {@code
     * V013__store_instance}), the same for every server sharing it and for every open. A file
     * derived from the store and kept outside it (the entity graph's snapshot) records it, so one
     * made from another database, say a PostgreSQL database recreated under the same data dir, is
     * told apart and not trusted.
     */
    String instanceId();

    // ---- namespaces ----------------------------------------------------------------------

    /**
     * Creates a namespace whose recalls must name their user ({@link Namespace.RecallScope#USER});
     * {@link IllegalStateException} when it exists.
     */
    default Namespace createNamespace(String name, String description) {
        return createNamespace(name, description, Namespace.RecallScope.USER);
    }

    /** Creates a namespace; {@link IllegalStateException} when it exists. */
    Namespace createNamespace(String name, String description, Namespace.RecallScope recallScope);

    /**
     * Sets what a recall without a user reads in {@code name}; the namespace as it is now, empty
     * when it does not exist.
     */
    Optional<Namespace> setRecallScope(String name, Namespace.RecallScope recallScope);

    Optional<Namespace> namespace(String name);

    /** Namespaces by name. */
    Page<Namespace> namespaces(PageRequest page);

    /** Deletes a namespace and everything in it; false when it did not exist. */
    boolean deleteNamespace(String name);

    // ---- API tokens ----------------------------------------------------------------------

    /**
     * The API tokens made through the server's API, which every server sharing this store accepts
     * (hashes only, never secrets).
     */
    StoredTokens tokens();

    // ---- change sequence -----------------------------------------------------------------

    /**
     * Changes of all namespaces with {@code seq > afterSeq}, in seq order, at most {@code limit}
     * (1..{@value PageRequest#MAX_LIMIT}). Seq order is commit order, so a reader that remembers
     * the last seq it applied misses nothing.
     */
    List<Change> changesSince(long afterSeq, int limit);

    /** The seq of the newest change, 0 when there is none. */
    long lastChangeSeq();

    /** The catch-up loop that keeps this store's derived indexes current; closed with the store. */
    ChangeLog changeLog();

    /**
     * JDBC access for the modules that keep their own tables in this store (documents and chunks,
     * memories, conversations, traces, judgements), each with its own migrations ({@link Schema}).
     */
    SqlAccess sql();

    /**
     * Forgets a user of {@code namespace} (issue 44): runs {@code erase} (every module's deletes of
     * the user's rows, each appending its entities' DELETE changes; it answers how many rows of
     * each kind went) in one transaction with the audit record and a {@link Change.Kind#USER}
     * DELETE change, then catches this server's derived indexes up (other servers follow the change
     * log) and {@linkplain #reclaimDeletedSpace() reclaims the freed space}.
     *
     * @param requestedBy who asked (a token's name), kept in the audit record
     * @throws java.util.NoSuchElementException when the namespace does not exist
     * @throws IllegalArgumentException when {@code userId} or {@code requestedBy} is blank
     */
    ForgetRecord forgetUser(
            String namespace,
            String userId,
            String requestedBy,
            SqlAccess.SqlWork<java.util.Map<String, Long>> erase);

    /** The audit records of forgotten users of {@code namespace}, oldest first. */
    List<ForgetRecord> forgetRecords(String namespace);

    /**
     * Leaves no byte of deleted rows in the store's files where the backend can promise it: the
     * embedded store overwrites deleted content as it deletes ({@code secure_delete}) and here
     * checkpoints its WAL and truncates it. PostgreSQL keeps dead row versions until VACUUM, which
     * its autovacuum runs; a dump never holds them.
     */
    void reclaimDeletedSpace();

    @Override
    void close();

    /** Storage backends. */
    enum Kind {
        EMBEDDED,
        POSTGRES
    }
}
