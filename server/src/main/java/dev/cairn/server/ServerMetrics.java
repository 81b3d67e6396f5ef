package dev.cairn.server;

import dev.cairn.memory.service.MemoryService;
import dev.cairn.memory.service.MemoryStats;
import dev.cairn.store.Store;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.function.ToDoubleFunction;

/**
 * What {@code GET /metrics} shows, besides the request meters {@link
 * dev.cairn.server.http.MetricsFilter} adds: the JVM's memory, threads, processor and garbage
 * collection, how far the slowest derived index trails the store, and the memory service's
 * counters. {@link #close()} stops the garbage-collection listener. Thread-safe.
 */
final class ServerMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry registry;
    private final JvmGcMetrics gc;

    private ServerMetrics(PrometheusMeterRegistry registry, JvmGcMetrics gc) {
        this.registry = registry;
        this.gc = gc;
    }

    /** A registry with the JVM's meters and those of {@code store} and {@code memory}. */
    static ServerMetrics create(Store store, MemoryService memory) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        // how far the slowest derived index (Lucene, vectors, graph) trails the store
        Gauge.builder("cairn.index.lag", store, s -> s.lastChangeSeq() - s.changeLog().appliedSeq())
                .description("store changes the slowest derived index has not applied")
                .baseUnit("changes")
                .register(registry);
        bindMemory(memory, registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        return new ServerMetrics(registry, gc);
    }

    PrometheusMeterRegistry registry() {
        return registry;
    }

    /**
     * Counters {@code cairn_memory_*_total} (e.g. {@code cairn_memory_inserted_total}; a name
     * ending in "created" is reserved by OpenMetrics) and the gauge {@code
     * cairn_memory_duplicate_clusters}.
     */
    private static void bindMemory(MemoryService service, MeterRegistry registry) {
        MemoryStats s = service.stats();
        counter(
                registry,
                "cairn.memory.inserted",
                "memories inserted (new rows)",
                s,
                MemoryStats::created);
        counter(
                registry,
                "cairn.memory.deduplicated",
                "writes merged into an existing memory",
                s,
                MemoryStats::deduplicated);
        counter(
                registry,
                "cairn.memory.blocked",
                "writes refused by safety",
                s,
                MemoryStats::blocked);
        counter(registry, "cairn.memory.recalls", "recalls", s, MemoryStats::recalls);
        counter(
                registry,
                "cairn.memory.recalls.partial",
                "recalls cut short by their deadline",
                s,
                MemoryStats::partialRecalls);
        counter(
                registry,
                "cairn.memory.maintenance.expired",
                "memories moved to STALE past their TTL",
                s,
                MemoryStats::expired);
        counter(
                registry,
                "cairn.memory.maintenance.pruned",
                "memories moved to STALE by the per-user cap",
                s,
                MemoryStats::pruned);
        counter(
                registry,
                "cairn.memory.maintenance.reembedded",
                "memories re-embedded",
                s,
                MemoryStats::reembedded);
        counter(
                registry,
                "cairn.memory.maintenance.runs",
                "maintenance runs",
                s,
                MemoryStats::maintenanceRuns);
        counter(
                registry,
                "cairn.memory.maintenance.failures",
                "failed maintenance runs",
                s,
                MemoryStats::maintenanceFailures);
        counter(
                registry,
                "cairn.memory.table.loads",
                "namespaces' memory tables loaded from the store",
                s,
                MemoryStats::tableLoads);
        counter(
                registry,
                "cairn.memory.table.evictions",
                "memory tables dropped to stay within cairn.memory.resident-mb",
                s,
                MemoryStats::evictions);
        Gauge.builder("cairn.memory.resident.namespaces", s, x -> x.residentNamespaces())
                .description("namespaces whose memory table is in memory")
                .register(registry);
        Gauge.builder("cairn.memory.resident.bytes", s, x -> x.residentBytes())
                .description("estimated heap of the memory tables in memory")
                .register(registry);
        Gauge.builder("cairn.memory.duplicate.clusters", s, x -> x.duplicateClusters())
                .description("near-duplicate clusters found by the last maintenance run")
                .register(registry);
    }

    private static void counter(
            MeterRegistry registry,
            String name,
            String description,
            MemoryStats stats,
            ToDoubleFunction<MemoryStats> f) {
        FunctionCounter.builder(name, stats, f).description(description).register(registry);
    }

    @Override
    public void close() {
        gc.close();
    }
}
