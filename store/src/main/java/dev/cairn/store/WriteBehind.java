package dev.cairn.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Writes items behind the caller on one thread, and writes what piled up meanwhile together: every
 * item queued while the last write ran goes to the next {@code writeAll} call, so under load many
 * items share one transaction and one durable commit instead of one each. The writer groups a batch
 * however it needs (per namespace, say). After {@link #close} items are written in the caller's
 * thread. A process killed before a write loses only what was queued. Thread-safe.
 *
 * @param <T> what is written
 */
public final class WriteBehind<T> implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(WriteBehind.class.getName());

    private final Consumer<List<T>> writeAll;
    private final Duration closeWait;
    private final ConcurrentLinkedQueue<T> queued = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final ExecutorService writer;

    /**
     * @param threadName name of the writing thread
     * @param writeAll writes a batch in queue order; exceptions are its own to handle (one that
     *     escapes is logged and the batch is dropped)
     * @param closeWait how long {@link #close} waits for queued writes
     */
    public WriteBehind(String threadName, Consumer<List<T>> writeAll, Duration closeWait) {
        this.writeAll = writeAll;
        this.closeWait = closeWait;
        this.writer =
                Executors.newSingleThreadExecutor(
                        Thread.ofPlatform().name(threadName).daemon().factory());
    }

    /** Queues {@code item} for the next write. */
    public void add(T item) {
        queued.add(item);
        if (scheduled.compareAndSet(false, true)) {
            try {
                writer.execute(this::writeQueued);
            } catch (RejectedExecutionException closed) {
                scheduled.set(false);
                writeQueued();
            }
        }
    }

    private void writeQueued() {
        scheduled.set(false); // an item queued from now on schedules the next write
        List<T> batch = new ArrayList<>();
        T next;
        while ((next = queued.poll()) != null) {
            batch.add(next);
        }
        if (batch.isEmpty()) {
            return;
        }
        try {
            writeAll.accept(batch);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, batch.size() + " queued writes failed", e);
        }
    }

    /**
     * Returns once everything queued before the call is written: a write on the writer's thread
     * after the ones already scheduled (in the caller's thread after {@link #close}).
     */
    public void flush() {
        try {
            writer.submit(this::writeQueued).get();
        } catch (RejectedExecutionException closed) {
            writeQueued();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for queued writes", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("queued writes failed", e.getCause());
        }
    }

    /** Items waiting for a write. */
    public int queued() {
        return queued.size();
    }

    /** Writes what is queued, waiting up to the close wait. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(closeWait.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        queued.size() + " queued writes still unwritten at close");
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
