package dev.cairn.agents.conversation;

import dev.cairn.store.Change;
import dev.cairn.store.DerivedIndex;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Wakes the watchers of a namespace's messages when messages are appended there. It follows the
 * store's change log like the search index does, so it hears of appends by this server at once (the
 * writer catches the log up after its commit) and of other servers' appends within the log's
 * catch-up interval; the watchers then read the new messages themselves. Nothing here polls the
 * database.
 *
 * <p>The number of watchers per namespace is bounded: each holds an open response.
 */
public final class MessageWatch implements DerivedIndex {

    /** Most watchers of one namespace at a time. */
    public static final int MAX_WATCHERS_PER_NAMESPACE = 32;

    private final Map<String, Set<Watcher>> watchers = new ConcurrentHashMap<>();
    private final LongSupplier lastChangeSeq;
    private final int maxPerNamespace;
    private volatile long position;

    /** Set when the server stops: every watch ends instead of waiting for its client to leave. */
    private volatile boolean ended;

    MessageWatch(LongSupplier lastChangeSeq, int maxPerNamespace) {
        this.lastChangeSeq = lastChangeSeq;
        this.maxPerNamespace = maxPerNamespace;
        // Nothing to derive from the past: only appends from now on wake anyone.
        this.position = lastChangeSeq.getAsLong();
    }

    /**
     * A watcher of the namespace, or empty when it has {@link #MAX_WATCHERS_PER_NAMESPACE} already.
     * Close it when the watch ends.
     */
    public Optional<Watcher> open(String namespace) {
        Watcher[] opened = new Watcher[1];
        watchers.compute(
                namespace,
                (ns, set) -> {
                    Set<Watcher> current = set == null ? ConcurrentHashMap.newKeySet() : set;
                    if (current.size() < maxPerNamespace) {
                        opened[0] = new Watcher(ns);
                        current.add(opened[0]);
                    }
                    return current;
                });
        return Optional.ofNullable(opened[0]);
    }

    /**
     * Ends every watch, now and from now on: each wakes, sees {@link Watcher#ended()} and finishes
     * its answer. A server stopping calls this first, or it would wait out its grace period for
     * watches whose clients stay connected.
     */
    public void endAll() {
        ended = true;
        watchers.values().forEach(set -> set.forEach(Watcher::wake));
    }

    /** How many watchers the namespace has now. */
    public int watching(String namespace) {
        Set<Watcher> set = watchers.get(namespace);
        return set == null ? 0 : set.size();
    }

    /** One open watch: waits until messages may have been appended to its namespace. */
    public final class Watcher implements AutoCloseable {

        private final String namespace;
        private final Semaphore appended = new Semaphore(0);

        private Watcher(String namespace) {
            this.namespace = namespace;
        }

        /**
         * Waits up to {@code timeout} for an append; true when there was one since the last call
         * (the caller then reads what is new), false when the time ran out.
         */
        public boolean awaitAppend(Duration timeout) throws InterruptedException {
            boolean woken = appended.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS);
            appended.drainPermits();
            return woken;
        }

        private void wake() {
            appended.release();
        }

        /** Whether the watch must end because the server is stopping ({@link #endAll()}). */
        public boolean ended() {
            return ended;
        }

        @Override
        public void close() {
            watchers.computeIfPresent(
                    namespace,
                    (ns, set) -> {
                        set.remove(this);
                        return set.isEmpty() ? null : set;
                    });
        }
    }

    @Override
    public String name() {
        return "message-watch";
    }

    @Override
    public long lastAppliedSeq() {
        return position;
    }

    @Override
    public void apply(List<Change> changes) {
        Set<String> touched = new HashSet<>();
        for (Change change : changes) {
            if (change.kind() == Change.Kind.MESSAGE && change.op() == Change.Op.UPSERT) {
                touched.add(change.namespace());
            }
        }
        for (String namespace : touched) {
            Set<Watcher> set = watchers.get(namespace);
            if (set != null) {
                set.forEach(Watcher::wake);
            }
        }
    }

    @Override
    public void applied(long seq) {
        position = seq;
    }

    @Override
    public void reset() {
        position = lastChangeSeq.getAsLong();
    }
}
