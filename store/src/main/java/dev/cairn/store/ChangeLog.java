package dev.cairn.store;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one catch-up loop of a store: every {@link DerivedIndex} registered here is kept current from
 * the store's change sequence. It runs on a short interval ({@link StoreConfig#catchUpInterval()}),
 * so writes of other servers sharing the database are seen within about that long, and on demand: a
 * writer calls {@link #catchUp()} after its transaction commits (read-your-writes on the server
 * that wrote), a reader that must see every committed write calls {@link #catchUpIfBehind()}.
 *
 * <p>Thread-safe. Changes are applied under one lock, in sequence order, so the indexes never see
 * two changes at once. An index whose {@code apply} throws stops at that change and is retried on
 * the next round; the others go on.
 */
public final class ChangeLog implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ChangeLog.class.getName());

    /** How often an index that applied changes is committed (made durable). */
    public static final Duration COMMIT_INTERVAL = Duration.ofSeconds(2);

    /** Changes read from the store in one batch. */
    static final int BATCH = 1000;

    private final Store store;
    private final Duration interval;
    private final ReentrantLock lock = new ReentrantLock();
    private final List<Follower> followers = new CopyOnWriteArrayList<>();
    private final Object loopLock = new Object();
    private ScheduledExecutorService loop; // guarded by loopLock; started with the first index
    private volatile boolean closed;

    ChangeLog(Store store, Duration interval) {
        this.store = Objects.requireNonNull(store, "store");
        this.interval = Objects.requireNonNull(interval, "interval");
    }

    /**
     * An index with the bookkeeping of the loop. Written under {@link #lock}; {@code position} is
     * also read without it ({@link #catchUpIfBehind}, {@link #appliedSeq}), hence volatile.
     */
    private static final class Follower {
        final DerivedIndex index;
        volatile long position;
        boolean dirty;
        long lastCommitNanos = System.nanoTime();

        Follower(DerivedIndex index) {
            this.index = index;
            this.position = index.lastAppliedSeq();
        }
    }

    /**
     * Registers an index and brings it up to date before returning (so a component opened on the
     * store answers from current data at once).
     *
     * @throws IllegalStateException when this index is registered already, or the store is closed
     */
    public void follow(DerivedIndex index) {
        Objects.requireNonNull(index, "index");
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the store is closed");
            }
            for (Follower f : followers) {
                if (f.index == index) {
                    throw new IllegalStateException(
                            "index '" + index.name() + "' is registered already");
                }
            }
            Follower follower = new Follower(index);
            long last = store.lastChangeSeq();
            if (follower.position > last) {
                // the index saw changes this store does not have: the store was restored from a
                // backup (or replaced) under the index, which would otherwise skip the new changes
                // that reuse those sequence numbers
                LOG.log(
                        System.Logger.Level.WARNING,
                        "index ''{0}'' applied changes up to {1} but the store ends at {2}"
                                + " (restored from a backup?): rebuilding it from the store",
                        index.name(),
                        follower.position,
                        last);
                index.reset();
                follower.position = index.lastAppliedSeq();
                follower.dirty = true;
            }
            followers.add(follower);
            catchUp();
        } finally {
            lock.unlock();
        }
        startLoop();
    }

    /** Unregisters an index after committing what it applied; unknown indexes are ignored. */
    public void unfollow(DerivedIndex index) {
        lock.lock();
        try {
            for (Follower f : followers) {
                if (f.index == index) {
                    followers.remove(f);
                    commitQuietly(f);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Forgets what {@code index} derived and replays the log into it (a lost or distrusted index).
     */
    public void rebuild(DerivedIndex index) {
        lock.lock();
        try {
            for (Follower f : followers) {
                if (f.index == index) {
                    index.reset();
                    f.position = index.lastAppliedSeq();
                    f.dirty = true;
                }
            }
            catchUp();
        } finally {
            lock.unlock();
        }
    }

    /** Applies every committed change the indexes have not seen yet. */
    public void catchUp() {
        lock.lock();
        try {
            if (followers.isEmpty()) {
                return;
            }
            long from = Long.MAX_VALUE;
            for (Follower f : followers) {
                from = Math.min(from, f.position);
            }
            Set<Follower> stopped = new HashSet<>();
            while (true) {
                List<Change> changes = store.changesSince(from, BATCH);
                if (changes.isEmpty()) {
                    break;
                }
                for (Follower f : followers) {
                    if (stopped.contains(f)) {
                        continue;
                    }
                    if (!deliver(f, changes)) {
                        stopped.add(f);
                    }
                }
                from = changes.getLast().seq();
            }
            commitDue(false);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Catches up when the store has a change some index has not applied: one cheap query when
     * everything is current. For reads that must see writes of other servers at once.
     */
    public void catchUpIfBehind() {
        long last = store.lastChangeSeq();
        for (Follower f : followers) {
            if (f.position < last) {
                catchUp();
                return;
            }
        }
    }

    /**
     * The lowest position of the registered indexes (the store's last seq when all are current).
     */
    public long appliedSeq() {
        long min = Long.MAX_VALUE;
        for (Follower f : followers) {
            min = Math.min(min, f.position);
        }
        return min == Long.MAX_VALUE ? store.lastChangeSeq() : min;
    }

    /**
     * Each registered index's position by {@link DerivedIndex#name()} (the lowest, should two share
     * a name): what {@code GET /health} reports as index lag against the store's last change.
     */
    public java.util.Map<String, Long> positions() {
        java.util.Map<String, Long> positions = new java.util.TreeMap<>();
        for (Follower f : followers) {
            positions.merge(f.index.name(), f.position, Math::min);
        }
        return positions;
    }

    /** Applies the changes after the follower's position; false when its index failed. */
    private static boolean deliver(Follower f, List<Change> changes) {
        List<Change> pending = new ArrayList<>(changes.size());
        for (Change change : changes) {
            if (change.seq() > f.position) {
                pending.add(change);
            }
        }
        if (pending.isEmpty()) {
            return true;
        }
        try {
            f.index.apply(pending);
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "derived index '"
                            + f.index.name()
                            + "' could not apply changes after seq "
                            + f.position
                            + "; retrying on the next round",
                    e);
            return false;
        }
        f.position = pending.getLast().seq();
        f.index.applied(f.position);
        f.dirty = true;
        return true;
    }

    private void commitDue(boolean force) {
        long now = System.nanoTime();
        for (Follower f : followers) {
            if (f.dirty && (force || now - f.lastCommitNanos >= COMMIT_INTERVAL.toNanos())) {
                commitQuietly(f);
            }
        }
    }

    private static void commitQuietly(Follower f) {
        try {
            f.index.commit();
            f.dirty = false;
            f.lastCommitNanos = System.nanoTime();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "derived index '" + f.index.name() + "' commit failed", e);
        }
    }

    private void startLoop() {
        synchronized (loopLock) {
            if (loop != null || closed || interval.isZero()) {
                return;
            }
            loop =
                    Executors.newSingleThreadScheduledExecutor(
                            Thread.ofPlatform().name("cairn-change-log").daemon().factory());
            long millis = Math.max(1, interval.toMillis());
            loop.scheduleWithFixedDelay(this::round, millis, millis, TimeUnit.MILLISECONDS);
        }
    }

    private void round() {
        try {
            catchUpIfBehind();
            lock.lock();
            try {
                commitDue(false);
            } finally {
                lock.unlock();
            }
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.log(Level.WARNING, "change log catch-up failed; retrying", e);
            }
        }
    }

    /**
     * Stops the loop (letting a round in flight finish: interrupting a Lucene commit would close
     * its files) and commits every index.
     */
    @Override
    public void close() {
        closed = true;
        ScheduledExecutorService running;
        synchronized (loopLock) {
            running = loop;
            loop = null;
        }
        if (running != null) {
            running.shutdown();
            try {
                if (!running.awaitTermination(30, TimeUnit.SECONDS)) {
                    LOG.log(Level.WARNING, "a change log round is still running at close");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        lock.lock();
        try {
            commitDue(true);
            followers.clear();
        } finally {
            lock.unlock();
        }
    }
}
