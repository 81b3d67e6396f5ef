package dev.cairn.embeddings;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One platform thread that runs one task at a time for a caller who waits for it, with a hand-off
 * measured in nanoseconds instead of an executor's tens of microseconds: after a task the thread
 * spins for {@link #SPIN_NANOS} waiting for the next one (a forward pass hands over every few
 * hundred microseconds), then parks. Single caller at a time; not a general executor.
 */
final class SpinningHelper {

    /** How long the helper keeps spinning for the next task before it parks. */
    static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(500);

    private final Thread thread;
    private volatile Callable<?> task;
    private volatile Object result;
    private volatile Throwable failure;
    private volatile boolean done = true;

    SpinningHelper(String name) {
        thread = Thread.ofPlatform().name(name).daemon(true).start(this::loop);
    }

    /** Hands {@code work} to the helper; {@link #await} returns its result. */
    void start(Callable<?> work) {
        if (!done) {
            throw new IllegalStateException("helper busy");
        }
        result = null;
        failure = null;
        done = false;
        task = work;
        LockSupport.unpark(thread);
    }

    /** Waits (spinning) for the task handed over by {@link #start}. */
    @SuppressWarnings("unchecked")
    <T> T await() {
        while (!done) {
            Thread.onSpinWait();
        }
        if (failure != null) {
            throw failure instanceof RuntimeException r
                    ? r
                    : new IllegalStateException("helper task failed", failure);
        }
        return (T) result;
    }

    private void loop() {
        long idleSince = System.nanoTime();
        while (true) {
            Callable<?> work = task;
            if (work != null) {
                task = null;
                try {
                    result = work.call();
                } catch (Throwable e) {
                    failure = e;
                }
                done = true;
                idleSince = System.nanoTime();
            } else if (System.nanoTime() - idleSince < SPIN_NANOS) {
                Thread.onSpinWait();
            } else {
                LockSupport.park(this);
                idleSince = System.nanoTime();
            }
        }
    }
}
