package dev.cairn.memory.service;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Monotonic counters (and one gauge) of a memory service, read by the server's metrics registry.
 * Thread-safe.
 */
public final class MemoryStats {

    final AtomicLong created = new AtomicLong();
    final AtomicLong deduplicated = new AtomicLong();
    final AtomicLong blocked = new AtomicLong();
    final AtomicLong recalls = new AtomicLong();
    final AtomicLong partialRecalls = new AtomicLong();
    final AtomicLong expired = new AtomicLong();
    final AtomicLong pruned = new AtomicLong();
    final AtomicLong reembedded = new AtomicLong();
    final AtomicLong maintenanceRuns = new AtomicLong();
    final AtomicLong maintenanceFailures = new AtomicLong();
    final AtomicLong duplicateClusters = new AtomicLong();

    MemoryStats() {}

    public long created() {
        return created.get();
    }

    public long deduplicated() {
        return deduplicated.get();
    }

    public long blocked() {
        return blocked.get();
    }

    public long recalls() {
        return recalls.get();
    }

    public long partialRecalls() {
        return partialRecalls.get();
    }

    public long expired() {
        return expired.get();
    }

    public long pruned() {
        return pruned.get();
    }

    public long reembedded() {
        return reembedded.get();
    }

    public long maintenanceRuns() {
        return maintenanceRuns.get();
    }

    public long maintenanceFailures() {
        return maintenanceFailures.get();
    }

    /** Gauge: duplicate clusters found by the last maintenance run. */
    public long duplicateClusters() {
        return duplicateClusters.get();
    }
}
