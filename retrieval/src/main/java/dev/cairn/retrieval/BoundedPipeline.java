package dev.cairn.retrieval;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A chain of stages that overlap: the source and every intermediate stage run on their own named
 * thread and hand their output to the next stage through a bounded queue, and the sink runs on the
 * caller's thread. So a slow stage (the encoder) never waits for a fast one (parsing, the store
 * transaction) unless a queue is full, and a full queue holds the stages before it back: at most
 * {@code capacity} items wait between two stages.
 *
 * <p>Items keep their order (one thread per stage, FIFO queues). The first exception of any stage
 * stops the others at their next hand-over and is rethrown by {@link #drain} once every stage
 * thread has ended, so nothing is written after {@code drain} returns or throws, and the sink never
 * sees an item whose earlier stages failed. Stages are stopped by a flag, not by interrupts: an
 * interrupt closes the Lucene file channels a stage may be writing to.
 *
 * <p>Not thread-safe: build and drain it on one thread.
 *
 * @param <T> what the last stage yields
 */
final class BoundedPipeline<T> {

    /** How often a blocked hand-over looks whether another stage failed. */
    private static final long POLL_MILLIS = 50;

    private static final Object END = new Object();

    private final String name;
    private final Iterator<?> source;
    private final int capacity;
    private final List<Stage> stages;

    private record Stage(String name, Function<Object, Object> work) {}

    private BoundedPipeline(String name, Iterator<?> source, int capacity, List<Stage> stages) {
        this.name = name;
        this.source = source;
        this.capacity = capacity;
        this.stages = stages;
    }

    /**
     * A pipeline reading {@code source} on a thread named {@code cairn-<name>-source}.
     *
     * @param capacity most items waiting between two stages, at least 1
     */
    static <T> BoundedPipeline<T> from(String name, Iterator<? extends T> source, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("illegal capacity: " + capacity + ", must be >= 1");
        }
        return new BoundedPipeline<>(
                Objects.requireNonNull(name, "name"),
                Objects.requireNonNull(source, "source"),
                capacity,
                List.of());
    }

    /** Adds a stage that runs {@code work} on each item, on its own thread. */
    @SuppressWarnings("unchecked")
    <R> BoundedPipeline<R> then(String stage, Function<? super T, ? extends R> work) {
        List<Stage> next = new ArrayList<>(stages);
        next.add(new Stage(stage, item -> work.apply((T) item)));
        return new BoundedPipeline<>(name, source, capacity, List.copyOf(next));
    }

    /**
     * Runs every stage and hands each last-stage item to {@code sink} on this thread, in source
     * order; returns when the source is exhausted and every item is sunk.
     *
     * @throws RuntimeException the first failure of any stage or the sink (an {@link Error} as
     *     itself), after every stage thread has ended
     */
    @SuppressWarnings("unchecked")
    void drain(Consumer<? super T> sink) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<BlockingQueue<Object>> queues = new ArrayList<>();
        for (int i = 0; i <= stages.size(); i++) {
            queues.add(new ArrayBlockingQueue<>(capacity));
        }
        List<Thread> threads = new ArrayList<>();
        threads.add(
                thread(
                        "source",
                        failure,
                        () -> {
                            while (failure.get() == null && source.hasNext()) {
                                put(queues.getFirst(), source.next(), failure);
                            }
                            put(queues.getFirst(), END, failure);
                        }));
        for (int i = 0; i < stages.size(); i++) {
            Stage stage = stages.get(i);
            BlockingQueue<Object> in = queues.get(i);
            BlockingQueue<Object> out = queues.get(i + 1);
            threads.add(
                    thread(
                            stage.name(),
                            failure,
                            () -> {
                                for (Object item = take(in, failure);
                                        item != END;
                                        item = take(in, failure)) {
                                    put(out, stage.work().apply(item), failure);
                                }
                                put(out, END, failure);
                            }));
        }
        threads.forEach(Thread::start);
        try {
            BlockingQueue<Object> last = queues.getLast();
            for (Object item = take(last, failure); item != END; item = take(last, failure)) {
                sink.accept((T) item);
            }
        } catch (Stopped stopped) {
            // another stage failed; its exception is rethrown below
        } catch (RuntimeException | Error e) {
            failure.compareAndSet(null, e);
        } finally {
            threads.forEach(BoundedPipeline::joinUninterruptibly);
        }
        Throwable cause = failure.get();
        if (cause instanceof RuntimeException e) {
            throw e;
        }
        if (cause instanceof Error e) {
            throw e;
        }
    }

    private Thread thread(String stage, AtomicReference<Throwable> failure, Runnable body) {
        return Thread.ofPlatform()
                .name("cairn-" + name + "-" + stage)
                .daemon(true)
                .unstarted(
                        () -> {
                            try {
                                body.run();
                            } catch (Stopped stopped) {
                                // another stage failed first
                            } catch (RuntimeException | Error e) {
                                failure.compareAndSet(null, e);
                            }
                        });
    }

    private static void put(
            BlockingQueue<Object> queue, Object item, AtomicReference<Throwable> failure) {
        try {
            while (!queue.offer(item, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                if (failure.get() != null) {
                    throw new Stopped();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("pipeline stage interrupted", e);
        }
    }

    private static Object take(BlockingQueue<Object> queue, AtomicReference<Throwable> failure) {
        try {
            while (true) {
                if (failure.get() != null) {
                    throw new Stopped();
                }
                Object item = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (item != null) {
                    return item;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("pipeline stage interrupted", e);
        }
    }

    private static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Thrown inside a stage to stop it because another stage failed. */
    private static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super(null, null, false, false);
        }
    }
}
