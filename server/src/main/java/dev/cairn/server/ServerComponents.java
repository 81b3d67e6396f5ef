package dev.cairn.server;

import dev.cairn.judge.service.JudgeService;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.server.api.GovernanceModule;
import dev.cairn.server.api.ServiceMemoryPort;
import dev.cairn.server.auth.AdminToken;
import dev.cairn.server.auth.ApiToken;
import dev.cairn.server.auth.TokenRegistry;
import dev.cairn.store.Store;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything the HTTP resources run on, opened from the server settings: Cairn's library components
 * (store, model, knowledge base), the tokens, the metrics registry, the memory service, the
 * governance module and the judge. {@link CairnRouting} puts the resources on top; the web server
 * and the routing tests share it. {@link #close()} closes in reverse order of opening. Thread-safe.
 */
public final class ServerComponents implements AutoCloseable {

    private final ServerSettings settings;
    private final Cairn cairn;
    private final TokenRegistry tokens;
    private final Optional<String> generatedAdminToken;
    private final PrometheusMeterRegistry metrics;
    private final JvmGcMetrics gcMetrics;
    private final MemoryService memory;
    private final GovernanceModule governance;
    private final JudgeService judge;

    private ServerComponents(
            ServerSettings settings,
            Cairn cairn,
            TokenRegistry tokens,
            Optional<String> generatedAdminToken,
            PrometheusMeterRegistry metrics,
            JvmGcMetrics gcMetrics,
            MemoryService memory,
            GovernanceModule governance,
            JudgeService judge) {
        this.settings = settings;
        this.cairn = cairn;
        this.tokens = tokens;
        this.generatedAdminToken = generatedAdminToken;
        this.metrics = metrics;
        this.gcMetrics = gcMetrics;
        this.memory = memory;
        this.governance = governance;
        this.judge = judge;
    }

    /** Opens everything, closing what was opened when a later step fails. */
    public static ServerComponents open(ServerSettings settings) {
        return open(settings, new StartupPhases());
    }

    /** As {@link #open(ServerSettings)}, recording the time of each step in {@code phases}. */
    public static ServerComponents open(ServerSettings settings, StartupPhases phases) {
        DataDir.prepare(settings.dataDir());
        Cairn cairn = Cairn.open(settings, phases);
        JvmGcMetrics gcMetrics = null;
        MemoryService memory = null;
        try {
            long servicesStart = System.nanoTime();
            AdminToken.Resolved admin =
                    AdminToken.resolve(settings.adminToken(), settings.dataDir());
            List<ApiToken> fixed = new ArrayList<>(settings.tokens());
            fixed.add(admin.token());
            TokenRegistry tokens = TokenRegistry.create(fixed, settings.dataDir());
            // The store's files were created with the process umask: owner-only, like the dir.
            DataDir.restrictFiles(settings.dataDir());

            PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            new JvmMemoryMetrics().bindTo(metrics);
            new JvmThreadMetrics().bindTo(metrics);
            new ProcessorMetrics().bindTo(metrics);
            gcMetrics = new JvmGcMetrics();
            gcMetrics.bindTo(metrics);

            memory = MemoryWiring.open(cairn, settings);
            MemoryWiring.bindMetrics(memory, metrics);
            // how far the slowest derived index (Lucene, vectors, graph) trails the store
            io.micrometer.core.instrument.Gauge.builder(
                            "cairn.index.lag",
                            cairn.store(),
                            s -> s.lastChangeSeq() - s.changeLog().appliedSeq())
                    .description("store changes the slowest derived index has not applied")
                    .baseUnit("changes")
                    .register(metrics);
            KnowledgeBase knowledge = cairn.knowledge();
            GovernanceModule governance =
                    GovernanceModule.create(
                            knowledge, new ServiceMemoryPort(memory), ExtractWiring.pipeline());
            // BERT similarity, calibrated thresholds, memory's secret detectors, and the entity
            // graph's contradicts relations among the evidence.
            JudgeService judge =
                    JudgeService.calibrated(
                            knowledge,
                            cairn.model(),
                            new GraphContradictions(cairn.graph().graph()));
            // tokens, metrics, the memory service (its Lucene index), governance and the judge
            phases.record("services", System.nanoTime() - servicesStart);
            return new ServerComponents(
                    settings,
                    cairn,
                    tokens,
                    admin.newSecret(),
                    metrics,
                    gcMetrics,
                    memory,
                    governance,
                    judge);
        } catch (RuntimeException e) {
            try {
                if (gcMetrics != null) {
                    gcMetrics.close();
                }
                if (memory != null) {
                    memory.close();
                }
            } finally {
                cairn.close();
            }
            throw e;
        }
    }

    public ServerSettings settings() {
        return settings;
    }

    public Store store() {
        return cairn.store();
    }

    public Cairn cairn() {
        return cairn;
    }

    public KnowledgeBase knowledge() {
        return cairn.knowledge();
    }

    public TokenRegistry tokens() {
        return tokens;
    }

    /** The admin token's secret when this opening generated it; it is never shown again. */
    public Optional<String> generatedAdminToken() {
        return generatedAdminToken;
    }

    public PrometheusMeterRegistry metrics() {
        return metrics;
    }

    public MemoryService memory() {
        return memory;
    }

    public GovernanceModule governance() {
        return governance;
    }

    public JudgeService judge() {
        return judge;
    }

    @Override
    public void close() {
        try {
            gcMetrics.close();
            governance.close();
        } finally {
            try {
                memory.close();
            } finally {
                cairn.close();
            }
        }
    }
}
