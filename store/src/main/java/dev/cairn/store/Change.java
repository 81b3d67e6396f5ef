package dev.cairn.store;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of the store's change sequence. Derived indexes remember the {@code seq} they applied
 * last and catch up with {@link Store#changesSince(long, int)}; a change says only what changed,
 * the consumer reads the current state (an UPSERT of a since-deleted entity reads as absent).
 *
 * @param seq position in the sequence, >= 1, strictly increasing in commit order
 * @param namespace the namespace of the entity
 * @param kind what kind of entity changed
 * @param entityId its id (the namespace name for {@link Kind#NAMESPACE})
 * @param op what happened
 * @param at when it was written
 */
public record Change(long seq, String namespace, Kind kind, String entityId, Op op, Instant at) {

    public Change {
        if (seq < 1) {
            throw new IllegalArgumentException("illegal seq: " + seq + ", must be >= 1");
        }
        Namespace.requireValidName(namespace);
        Objects.requireNonNull(kind, "kind");
        Records.requireText(entityId, "entityId");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(at, "at");
    }

    /**
     * Kinds of entity in the change sequence. A {@link #NAMESPACE} DELETE means everything in the
     * namespace is gone. A {@link #USER} DELETE (entity id: the {@link ForgetRecord}'s id, never
     * the user's) follows the DELETE changes of a forgotten user's rows: an index on disk rewrites
     * what still holds deleted entries of that namespace, so no byte of them stays.
     */
    public enum Kind {
        NAMESPACE,
        DOCUMENT,
        RELATION,
        MEMORY,
        PROPOSAL,
        MESSAGE,
        KEY_VALUE,
        TRACE,
        JUDGEMENT,
        USER
    }

    /** What happened to the entity. */
    public enum Op {
        UPSERT,
        DELETE
    }
}
