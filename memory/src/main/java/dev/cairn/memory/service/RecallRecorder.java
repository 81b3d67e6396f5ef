package dev.cairn.memory.service;

import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.memory.store.RecallTally;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes recall bookkeeping ({@code recalledCount}, {@code lastRecalledAt}) behind the answers, and
 * writes what piled up meanwhile together: one transaction per namespace for every recall that
 * arrived while the last write ran. Under load that is one durable commit for many recalls instead
 * of one each (a commit per recall was a sixth of a loaded server's CPU, mostly SQLite's fsync). A
 * process killed before a write loses that bookkeeping only. Thread-safe.
 */
final class RecallRecorder implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RecallRecorder.class.getName());

    private record Recalled(String namespace, List<String> ids, Instant at) {}

    private final MemoryRepository repository;
    private final MemoryIndexes indexes;
    private final ConcurrentLinkedQueue<Recalled> queued = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final ExecutorService writer =
            Executors.newSingleThreadExecutor(
                    Thread.ofPlatform().name("cairn-memory-recall-recorder").daemon().factory());

    RecallRecorder(MemoryRepository repository, MemoryIndexes indexes) {
        this.repository = repository;
        this.indexes = indexes;
    }

    /** Queues the bookkeeping of one recall of {@code ids} at {@code at}. */
    void record(String namespace, List<String> ids, Instant at) {
        queued.add(new Recalled(namespace, ids, at));
        if (scheduled.compareAndSet(false, true)) {
            try {
                writer.execute(this::writeQueued);
            } catch (RejectedExecutionException closed) {
                scheduled.set(false); // closing: what is queued is dropped with the process
            }
        }
    }

    private void writeQueued() {
        scheduled.set(false); // a recall queued from now on schedules the next write
        Map<String, Map<String, RecallTally>> byNamespace = new HashMap<>();
        Recalled r;
        while ((r = queued.poll()) != null) {
            Map<String, RecallTally> tallies =
                    byNamespace.computeIfAbsent(r.namespace(), n -> new HashMap<>());
            for (String id : r.ids()) {
                tallies.merge(id, RecallTally.once(r.at()), RecallTally::plus);
            }
        }
        byNamespace.forEach(
                (namespace, tallies) -> {
                    try {
                        repository.recordRecalls(namespace, tallies);
                        indexes.recalled(namespace, tallies);
                    } catch (RuntimeException e) {
                        LOG.log(
                                Level.WARNING,
                                "could not record recalls in namespace " + namespace,
                                e);
                    }
                });
    }

    /** Writes what is queued, waiting up to 5 s. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(5, TimeUnit.SECONDS)) {
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
