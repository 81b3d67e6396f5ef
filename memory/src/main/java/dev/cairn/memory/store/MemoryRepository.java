package dev.cairn.memory.store;

import dev.cairn.memory.Memory;
import dev.cairn.memory.StatusTransition;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Memories and their status history in the store. Every method works inside one namespace; a memory
 * of another namespace reads as absent. Implementations are thread-safe; the store's transactions
 * make each {@link #write} atomic.
 */
public interface MemoryRepository {

    /** The repository over {@code store}'s SQL database (either dialect). */
    static MemoryRepository over(Store store) {
        return new SqlMemoryRepository(store.sql(), store.config().dimensions());
    }

    /**
     * Inserts or replaces {@code rows} and appends {@code transitions} (never overwriting earlier
     * ones) in one transaction, with a {@link dev.cairn.store.Change.Kind#MEMORY} UPSERT per row in
     * the change sequence. Nothing is written if any part fails.
     *
     * @throws java.util.NoSuchElementException when the namespace does not exist
     * @throws IllegalArgumentException when a row is of another namespace, or a transition names a
     *     memory that neither exists nor is written here
     */
    void write(String namespace, List<MemoryRow> rows, List<StatusTransition> transitions);

    Optional<Memory> find(String namespace, String id);

    /** The memories with these ids, in id order; unknown ids are skipped. */
    List<Memory> findAll(String namespace, Collection<String> ids);

    /** The stored embedding of a memory, empty when it has none or does not exist. */
    float[] embedding(String namespace, String id);

    /**
     * The stored vectors of a memory's turn windows ({@link dev.cairn.memory.TurnWindows}): an
     * empty list when it has none, empty when they are not computed yet or it does not exist.
     */
    Optional<List<float[]>> windows(String namespace, String id);

    /** Memories matching {@code filter}, by id ascending; the cursor is the last id of a page. */
    Page<Memory> list(String namespace, MemoryFilter filter, PageRequest page);

    /** The status history of a memory, oldest first; empty when there is no such memory. */
    List<StatusTransition> transitions(String namespace, String id);

    /** Not-deleted memories whose normalised-content hash is {@code contentHash}, by id. */
    List<Memory> withContentHash(String namespace, String contentHash);

    /** Not-deleted memories with this non-empty conflict key, by id. */
    List<Memory> withConflictKey(String namespace, String conflictKey);

    /** What {@link #forEachLive} hands on for each memory. */
    @FunctionalInterface
    interface LiveMemory {
        /**
         * @param vector its embedding (a fresh array, empty when it has none)
         * @param windows its turn windows' vectors, empty when none or not computed
         */
        void accept(Memory memory, float[] vector, List<float[]> windows);
    }

    /**
     * Streams every memory that is not deleted, in id order, with its vector and its turn windows'
     * vectors. The consumer must not call back into the repository.
     */
    void forEachLive(String namespace, LiveMemory consumer);

    /**
     * Not-deleted conversation turns with an embedding whose windows were never computed (written
     * before windows existed, or by a path that does not compute them) and whose text is long
     * enough to need some, by id, at most {@code limit}.
     */
    List<Memory> needingWindows(String namespace, int limit);

    /** ACTIVE memories with {@code expiresAt <= now}, by id, at most {@code limit}. */
    List<Memory> expired(String namespace, Instant now, int limit);

    /**
     * Not-deleted memories with no embedding or one from a model other than {@code modelId}, by id,
     * at most {@code limit}.
     */
    List<Memory> needingEmbedding(String namespace, String modelId, int limit);

    /**
     * Recallable (ACTIVE, enabled, not deleted) memories of one user, lowest importance first, then
     * oldest {@code updatedAt}, then id; only past the first {@code keep} of the opposite order,
     * i.e. the ones a cap of {@code keep} would prune.
     */
    List<Memory> overCap(String namespace, String userId, int keep);

    /** Users ({@code userId}, "" for none) with more than {@code cap} recallable memories. */
    List<String> usersOverCap(String namespace, int cap);

    /**
     * Records recalls of these memories, in one transaction: {@code recalledCount + times}, {@code
     * lastRecalledAt} moved forward to {@code last} (never back). Not a change of content, so no
     * change row.
     */
    void recordRecalls(String namespace, Map<String, RecallTally> recalls);

    /** How many memories the namespace holds, deleted ones included. */
    long count(String namespace);
}
