package dev.cairn.server;

import dev.cairn.judge.service.JudgeService;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.server.api.GovernanceModule;
import dev.cairn.server.api.GraphRoutes;
import dev.cairn.server.api.JudgeRoutes;
import dev.cairn.server.api.KnowledgeRoutes;
import dev.cairn.server.api.MemoryRoutes;
import dev.cairn.server.api.NamespaceRoutes;
import dev.cairn.server.api.ServiceMemoryPort;
import dev.cairn.server.api.SystemRoutes;
import dev.cairn.server.api.TokenRoutes;
import dev.cairn.server.auth.AdminToken;
import dev.cairn.server.auth.ApiToken;
import dev.cairn.server.auth.AuthFilter;
import dev.cairn.server.auth.TokenRegistry;
import dev.cairn.server.http.MetricsFilter;
import dev.cairn.server.http.Problems;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Store;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A running Cairn server: the store, the library components wired onto it and the Helidon web
 * server in front. {@link #close()} stops accepting requests, lets in-flight ones finish within the
 * grace period and then closes the store. Thread-safe.
 */
public final class CairnServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(CairnServer.class.getName());

    private final ServerSettings settings;
    private final Cairn cairn;
    private final WebServer web;
    private final Optional<String> generatedAdminToken;
    private final JvmGcMetrics gcMetrics;
    private final GovernanceModule governance;
    private final MemoryService memory;

    private CairnServer(ServerSettings settings) {
        this.settings = settings;
        this.cairn = Cairn.open(settings);
        GovernanceModule openedGovernance = null;
        MemoryService openedMemory = null;
        try {
            Store store = cairn.store();
            KnowledgeBase knowledge = cairn.knowledge();
            AdminToken.Resolved admin =
                    AdminToken.resolve(settings.adminToken(), settings.dataDir());
            this.generatedAdminToken = admin.newSecret();
            List<ApiToken> fixed = new ArrayList<>(settings.tokens());
            fixed.add(admin.token());
            TokenRegistry tokens = TokenRegistry.create(fixed, settings.dataDir());

            PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            new JvmMemoryMetrics().bindTo(metrics);
            new JvmThreadMetrics().bindTo(metrics);
            new ProcessorMetrics().bindTo(metrics);
            this.gcMetrics = new JvmGcMetrics();
            gcMetrics.bindTo(metrics);

            HttpRouting.Builder routing = HttpRouting.builder();
            routing.addFilter(new MetricsFilter(metrics));
            routing.addFilter(new AuthFilter(tokens));
            Problems.register(routing);
            new SystemRoutes(store, metrics).register(routing);
            new NamespaceRoutes(store, settings.maxBodyBytes()).register(routing);
            new TokenRoutes(tokens, settings.maxBodyBytes()).register(routing);
            new KnowledgeRoutes(knowledge, settings.maxBodyBytes()).register(routing);
            // ---- memory (issue 6) ----
            openedMemory = MemoryWiring.open(cairn, settings);
            this.memory = openedMemory;
            MemoryWiring.bindMetrics(memory, metrics);
            new MemoryRoutes(memory, store, settings.maxBodyBytes()).register(routing);
            // ---- end memory ----
            // Governance: conversations (ARK), key/value (Orloj), proposals, transcripts, tools.
            openedGovernance =
                    GovernanceModule.create(
                            knowledge,
                            new ServiceMemoryPort(memory),
                            ExtractWiring.pipeline(),
                            settings.maxBodyBytes());
            this.governance = openedGovernance;
            governance.register(routing);
            // Judge (issue 8): BERT similarity, calibrated thresholds, memory's secret detectors,
            // and the entity graph's contradicts relations among the evidence.
            new JudgeRoutes(
                            JudgeService.calibrated(
                                    knowledge,
                                    cairn.model(),
                                    new GraphContradictions(cairn.graph().graph())),
                            store,
                            settings.maxBodyBytes())
                    .register(routing);
            new GraphRoutes(cairn.graph(), knowledge, settings.maxBodyBytes()).register(routing);
            Routes.notFound(routing);

            this.web =
                    WebServer.builder()
                            .host(settings.host())
                            .port(settings.port())
                            // No Helidon payload limit: its 413 is not problem+json.
                            // Json.readBody enforces cairn.server.max-body-bytes instead.
                            .shutdownGracePeriod(settings.shutdownGrace())
                            .shutdownHook(false)
                            .routing(routing)
                            .build()
                            .start();
        } catch (RuntimeException e) {
            if (openedGovernance != null) {
                openedGovernance.close();
            }
            if (openedMemory != null) {
                openedMemory.close();
            }
            cairn.close();
            throw e;
        }
    }

    /** Opens the store, starts the server and answers once it accepts connections. */
    public static CairnServer start(ServerSettings settings) {
        return new CairnServer(settings);
    }

    public int port() {
        return web.port();
    }

    public URI baseUri() {
        String host = settings.host().equals("0.0.0.0") ? "localhost" : settings.host();
        return URI.create("http://" + host + ":" + port());
    }

    /** The admin token's secret when this start generated it; it is never shown again. */
    public Optional<String> generatedAdminToken() {
        return generatedAdminToken;
    }

    public Store store() {
        return cairn.store();
    }

    public MemoryService memory() {
        return memory;
    }

    public KnowledgeBase knowledge() {
        return cairn.knowledge();
    }

    @Override
    public void close() {
        try {
            web.stop();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "web server did not stop cleanly", e);
        } finally {
            gcMetrics.close();
            try {
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
}
