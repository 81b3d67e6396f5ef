package dev.cairn.embeddings.kernels;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One platform thread that runs one task at a time for a caller who waits for it, with a hand-off
 * measured in nanoseconds instead of an executor's tens of microseconds: after a task the thread
 * spins for {@link #SPIN_NANOS} waiting for the next one (a forward pass hands over every few
 * hundred microseconds), then parks.
 *
 * <p>The caller never waits on a helper that has not started: on a busy machine (bm25, the trace
 * writer and HTTP threads share the two cores) the helper may not be scheduled when the caller is
 * done with its own share, and waiting then costs a scheduler slice. {@link #await} takes a task
 * the helper has not picked up and runs it itself; it waits only for a task in progress, spinning
 * briefly and then parking until the helper wakes it.
 *
 * <p>One caller at a time; not a general executor.
 */
final class SpinningHelper {

    /** How long the helper keeps spinning for the next task before it parks. */
    static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    /** How long a caller spins for a running task before it parks. */
    static final long AWAIT_SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    private final Thread thread;
    private final AtomicReference<Callable<?>> task = new AtomicReference<>();
    private volatile Thread waiter;
    private volatile Object result;
    private volatile Throwable failure;
    private volatile boolean done = true;

    SpinningHelper(String name) {
        thread = Thread.ofPlatform().name(name).daemon(true).start(this::loop);
    }

    /** Offers {@code work} to the helper; {@link #await} returns its result. */
    void start(Callable<?> work) {
        if (!done || task.get() != null) {
            throw new IllegalStateException("helper busy");
        }
        result = null;
        failure = null;
        done = false;
        task.set(work);
        LockSupport.unpark(thread);
    }

    /** The result of the task given to {@link #start}, run here if the helper has not begun it. */
    @SuppressWarnings("unchecked")
    <T> T await() {
        Callable<?> unclaimed = task.getAndSet(null);
        if (unclaimed != null) {
            run(unclaimed);
        } else {
            waiter = Thread.currentThread();
            long spinUntil = System.nanoTime() + AWAIT_SPIN_NANOS;
            while (!done) {
                if (System.nanoTime() < spinUntil) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.park(this);
                }
            }
            waiter = null;
        }
        if (failure != null) {
            throw failure instanceof RuntimeException r
                    ? r
                    : new IllegalStateException("helper task failed", failure);
        }
        return (T) result;
    }

    private void run(Callable<?> work) {
        try {
            result = work.call();
        } catch (Throwable e) {
            failure = e;
        }
        done = true;
    }

    private void loop() {
        long idleSince = System.nanoTime();
        while (true) {
            Callable<?> work = task.getAndSet(null);
            if (work != null) {
                run(work);
                Thread w = waiter;
                if (w != null) {
                    LockSupport.unpark(w);
                }
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
