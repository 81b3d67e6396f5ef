package dev.cairn.server;

import dev.cairn.memory.MemoryLifecycle;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.memory.service.MemoryServiceConfig;
import dev.cairn.memory.service.MemoryStats;
import dev.cairn.retrieval.lexical.LexicalConfig;
import dev.cairn.retrieval.lexical.LexicalIndex;
import dev.cairn.safety.WriteGuard;
import io.helidon.config.Config;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.ToDoubleFunction;

/**
 * Opens the memory service over Cairn's store and model (server and command line alike) and binds
 * its counters to a metrics registry. Settings come from the {@code cairn.memory} config node:
 * {@code merge-similarity} (0.92), {@code recall.candidates} (100), {@code recall.lexical-weight}
 * (0.1), {@code recall.dense-weight} (0.9), {@code maintenance.user-cap} (2000), {@code
 * maintenance.interval-seconds} (600, 0 disables), {@code maintenance.trace-max-age-days} (0, keeps
 * traces by number only), {@code resident-mb} (a quarter of the heap; 0: no bound: how large the
 * namespaces' memory tables in memory may grow before the least recently used are dropped). The
 * BM25 replica lives in {@code <data-dir>/lucene/memories}.
 */
public final class MemoryWiring {

    private MemoryWiring() {}

    /** Reads {@code cairn.memory} from the given {@code cairn} config node. */
    public static MemoryServiceConfig config(Config cairn) {
        Config m = cairn.get("memory");
        MemoryServiceConfig.Recall recall = MemoryServiceConfig.Recall.defaults();
        MemoryServiceConfig.Boosts boosts = MemoryServiceConfig.Boosts.defaults();
        MemoryServiceConfig.Maintenance maintenance = MemoryServiceConfig.Maintenance.defaults();
        return new MemoryServiceConfig(
                new MemoryLifecycle.Config(
                        m.get("merge-similarity")
                                .asDouble()
                                .orElse(MemoryLifecycle.DEFAULT_MERGE_SIMILARITY)),
                new MemoryServiceConfig.Recall(
                        m.get("recall.candidates").asInt().orElse(recall.candidates()),
                        m.get("recall.lexical-weight").asDouble().orElse(recall.lexicalWeight()),
                        m.get("recall.dense-weight").asDouble().orElse(recall.denseWeight()),
                        recall.scoreWeights(),
                        m.get("recall.drop-question-words")
                                .asBoolean()
                                .orElse(recall.dropQuestionWords()),
                        recall.recordRecalls()),
                new MemoryServiceConfig.Boosts(
                        m.get("recall.exchange-share").asDouble().orElse(boosts.exchangeShare()),
                        m.get("recall.period-bonus").asDouble().orElse(boosts.periodBonus()),
                        m.get("recall.time-bonus").asDouble().orElse(boosts.timeBonus()),
                        m.get("recall.session-share").asDouble().orElse(boosts.sessionShare()),
                        m.get("recall.speaker-bonus").asDouble().orElse(boosts.speakerBonus()),
                        m.get("recall.list-speaker-bonus")
                                .asDouble()
                                .orElse(boosts.listSpeakerBonus()),
                        m.get("recall.facet-bonus").asDouble().orElse(boosts.facetBonus())),
                new MemoryServiceConfig.Maintenance(
                        m.get("maintenance.user-cap").asInt().orElse(maintenance.userCap()),
                        Duration.ofSeconds(
                                m.get("maintenance.interval-seconds")
                                        .asLong()
                                        .orElse(maintenance.interval().toSeconds())),
                        Duration.ofDays(
                                m.get("maintenance.trace-max-age-days")
                                        .asLong()
                                        .orElse(maintenance.traceMaxAge().toDays()))),
                m.get("resident-mb")
                        .asLong()
                        .map(mb -> mb << 20)
                        .orElse(MemoryServiceConfig.defaultResidentBytes()));
    }

    /** The service with the {@code cairn.memory} settings of the default configuration. */
    public static MemoryService open(Cairn cairn, ServerSettings settings) {
        return open(cairn, settings, config(Config.create().get("cairn")));
    }

    public static MemoryService open(
            Cairn cairn, ServerSettings settings, MemoryServiceConfig config) {
        Path dir = settings.dataDir().resolve("lucene").resolve("memories");
        LexicalIndex lexical = LexicalIndex.open(dir, LexicalConfig.DEFAULTS);
        try {
            return MemoryService.create(
                    cairn.store(),
                    cairn.model(),
                    lexical,
                    WriteGuard.standard(),
                    config,
                    Clock.systemUTC());
        } catch (RuntimeException e) {
            lexical.close();
            throw e;
        }
    }

    /**
     * Counters {@code cairn_memory_*_total} (e.g. {@code cairn_memory_inserted_total}; a name
     * ending in "created" is reserved by OpenMetrics) and the gauge {@code
     * cairn_memory_duplicate_clusters}.
     */
    public static void bindMetrics(MemoryService service, MeterRegistry registry) {
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
}
