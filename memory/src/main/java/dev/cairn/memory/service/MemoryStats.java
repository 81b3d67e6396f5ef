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
    final AtomicLong tableLoads = new AtomicLong();
    final AtomicLong evictions = new AtomicLong();

    /** Loaded namespaces and their tables' estimated bytes, as the indexes count them now. */
    volatile java.util.function.Supplier<long[]> resident = () -> new long[2];

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
    /** Namespaces whose memory table was loaded from the store (first use, or after eviction). */
    public long tableLoads() {
        return tableLoads.get();
    }

    /** Namespaces whose memory table is in memory now (a gauge). */
    public long residentNamespaces() {
        return resident.get()[0];
    }

    /** The estimated heap of the memory tables in memory now (a gauge). */
    public long residentBytes() {
        return resident.get()[1];
    }

    /** Memory tables dropped to stay within the resident bound. */
    public long evictions() {
        return evictions.get();
    }

    public long duplicateClusters() {
        return duplicateClusters.get();
    }
}
