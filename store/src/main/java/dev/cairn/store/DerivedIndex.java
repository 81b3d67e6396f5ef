package dev.cairn.store;

import java.util.List;

/**
 * Something kept current from the store's change log: a Lucene index, an in-memory table, a graph.
 * Truth stays in the store; a derived index can always be rebuilt from it. The store's {@link
 * ChangeLog} delivers every change after {@link #lastAppliedSeq()} to {@link #apply}, in batches in
 * sequence order, from one catch-up loop; calls never overlap, so an implementation needs no
 * locking against the loop (only against its own readers).
 *
 * <p>A change says only what changed: {@link #apply} reads the entity's current state from the
 * store, so applying a change twice, or a change whose entity has changed again since, is harmless.
 * Batches let an index read and embed many entities at once.
 */
public interface DerivedIndex {

    /** Short name for logs. */
    String name();

    /**
     * The sequence of the last change this index has applied: the loop delivers the changes after
     * it. A persistent index returns what it recorded in {@link #applied}; an index that loads
     * lazily from current rows returns the store's last sequence as of before it loaded them.
     */
    long lastAppliedSeq();

    /**
     * Applies changes, in sequence order. An exception leaves this index at its position before the
     * batch, to be retried on the next round.
     */
    void apply(List<Change> changes);

    /** Every change up to {@code seq} is applied: a persistent index records it. */
    void applied(long seq);

    /**
     * Makes applied changes durable (a Lucene commit); the loop calls it at most every {@link
     * ChangeLog#COMMIT_INTERVAL} after changes were applied, and once at close.
     */
    default void commit() {}

    /**
     * Forgets everything derived so far; afterwards {@link #lastAppliedSeq()} says from where to
     * replay (0 for an index rebuilt by replaying the whole log).
     */
    void reset();

    /**
     * A derived index that has nothing to gain from seeing a batch at once: it applies each change
     * on its own, in sequence order.
     */
    interface ChangeByChange extends DerivedIndex {

        /** Applies one change; an exception leaves the batch, and this index, where it was. */
        void apply(Change change);

        @Override
        default void apply(List<Change> changes) {
            for (Change change : changes) {
                apply(change);
            }
        }
    }
}
