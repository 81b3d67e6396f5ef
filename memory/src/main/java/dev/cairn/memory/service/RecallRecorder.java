package dev.cairn.memory.service;

import dev.cairn.memory.store.MemoryRepository;
import dev.cairn.memory.store.RecallTally;
import dev.cairn.store.WriteBehind;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes recall bookkeeping ({@code recalledCount}, {@code lastRecalledAt}) behind the answers,
 * every recall queued while the last write ran in one transaction per namespace ({@link
 * WriteBehind}): a commit per recall was a sixth of a loaded server's CPU, mostly SQLite's fsync. A
 * process killed before a write loses that bookkeeping only. Thread-safe.
 */
final class RecallRecorder implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RecallRecorder.class.getName());

    private record Recalled(String namespace, List<String> ids, Instant at) {}

    private final MemoryRepository repository;
    private final MemoryIndexes indexes;
    private final WriteBehind<Recalled> writes =
            new WriteBehind<>("cairn-memory-recall-recorder", this::write, Duration.ofSeconds(5));

    RecallRecorder(MemoryRepository repository, MemoryIndexes indexes) {
        this.repository = repository;
        this.indexes = indexes;
    }

    /** Queues the bookkeeping of one recall of {@code ids} at {@code at}. */
    void record(String namespace, List<String> ids, Instant at) {
        writes.add(new Recalled(namespace, ids, at));
    }

    private void write(List<Recalled> recalls) {
        Map<String, Map<String, RecallTally>> byNamespace = new HashMap<>();
        for (Recalled r : recalls) {
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
        writes.close();
    }
}
