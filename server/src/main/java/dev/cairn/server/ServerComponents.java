package dev.cairn.server;

import dev.cairn.judge.service.JudgeService;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.server.api.GovernanceModule;
import dev.cairn.server.api.ServiceMemoryPort;
import dev.cairn.server.auth.AdminToken;
import dev.cairn.server.auth.ApiToken;
import dev.cairn.server.auth.TokenRegistry;
import dev.cairn.server.auth.TokensFileImport;
import dev.cairn.store.Store;
import io.helidon.config.Config;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The one place the server is assembled from its parts, each opened after the ones it needs:
 *
 * <ol>
 *   <li>the data dir, owner-only ({@link DataDir});
 *   <li>the library core ({@link Cairn}): the store and its change log, the entity graph, the
 *       embedding model (loading on its own thread meanwhile) and the knowledge base with its
 *       Lucene and vector indexes;
 *   <li>the tokens: the admin token ({@link AdminToken}), the configured ones and those made
 *       through the API, kept in the store ({@link TokenRegistry}; a data dir's former {@code
 *       tokens.json} is moved into the store first, {@link TokensFileImport});
 *   <li>the memory service with its BM25 replica and scheduled maintenance ({@link
 *       Cairn#openMemory}, its settings read by {@link MemorySettings});
 *   <li>the metrics: the JVM's, the index lag and the memory service's counters ({@link
 *       ServerMetrics});
 *   <li>governance, which the ARK, Orloj, proposal, transcript, extraction and tool resources run
 *       on ({@link GovernanceModule}, its extraction pipeline made by {@link ExtractionPipelines});
 *   <li>the judge, with the entity graph's contradicts relations among its evidence ({@link
 *       GraphContradictions}).
 * </ol>
 *
 * Each part is made by a class that does that one thing (reads its settings, opens it, binds its
 * meters); how the parts connect is written here and nowhere else. {@link CairnRouting} puts the
 * HTTP resources, auth and MCP on top, {@link CairnServer} the web server; the routing tests and
 * {@code cairn mcp} over stdio run on these same components. {@link #close()} closes in reverse
 * order of opening. Thread-safe.
 */
public final class ServerComponents implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ServerComponents.class.getName());

    private final ServerSettings settings;
    private final Cairn cairn;
    private final TokenRegistry tokens;
    private final Optional<String> generatedAdminToken;
    private final MemoryService memory;
    private final ServerMetrics metrics;
    private final GovernanceModule governance;
    private final JudgeService judge;

    /**
     * What ends answers that last as long as their client wants (MCP's listening streams, ARK
     * message watches), run as the server stops: the web server waits up to its grace period for
     * answers in progress, and a stream whose client left without a word would hold every stop for
     * all of it.
     */
    private final List<Runnable> endLongAnswers = new CopyOnWriteArrayList<>();

    private ServerComponents(
            ServerSettings settings,
            Cairn cairn,
            TokenRegistry tokens,
            Optional<String> generatedAdminToken,
            MemoryService memory,
            ServerMetrics metrics,
            GovernanceModule governance,
            JudgeService judge) {
        this.settings = settings;
        this.cairn = cairn;
        this.tokens = tokens;
        this.generatedAdminToken = generatedAdminToken;
        this.memory = memory;
        this.metrics = metrics;
        this.governance = governance;
        this.judge = judge;
    }

    /** Opens everything, closing what was opened when a later step fails. */
    public static ServerComponents open(ServerSettings settings) {
        return open(settings, new StartupPhases());
    }

    /**
     * As {@link #open(ServerSettings)}, recording the time of each step in {@code phases}: those of
     * {@link Cairn#open(ServerSettings, StartupPhases)}, then {@code services} for the rest.
     */
    public static ServerComponents open(ServerSettings settings, StartupPhases phases) {
        Path dataDir = settings.dataDir();
        DataDir.prepare(dataDir);
        Cairn cairn = Cairn.open(settings, phases);
        long servicesStart = System.nanoTime();
        MemoryService memory = null;
        ServerMetrics metrics = null;
        GovernanceModule governance = null;
        try {
            AdminToken.Resolved admin = AdminToken.resolve(settings.adminToken(), dataDir);
            List<ApiToken> fixed = new ArrayList<>(settings.tokens());
            fixed.add(admin.token());
            TokensFileImport.run(dataDir, cairn.store().tokens());
            TokenRegistry tokens = TokenRegistry.create(fixed, cairn.store().tokens());
            // The store's files were created with the process umask: owner-only, like the dir.
            DataDir.restrictFiles(dataDir);

            Config config = Config.create().get("cairn");
            memory = cairn.openMemory(MemorySettings.fromConfig(config));
            metrics = ServerMetrics.create(cairn.store(), memory);
            KnowledgeBase knowledge = cairn.knowledge();
            governance =
                    GovernanceModule.create(
                            knowledge,
                            new ServiceMemoryPort(memory),
                            ExtractionPipelines.fromConfig(config));
            // BERT similarity, calibrated thresholds, memory's secret detectors, and the entity
            // graph's contradicts relations among the evidence.
            JudgeService judge =
                    JudgeService.calibrated(
                            knowledge,
                            cairn.model(),
                            new GraphContradictions(cairn.graph().graph()));
            // tokens, the memory service (its Lucene index), metrics, governance and the judge
            phases.record("services", System.nanoTime() - servicesStart);
            return new ServerComponents(
                    settings, cairn, tokens, admin.newSecret(), memory, metrics, governance, judge);
        } catch (RuntimeException e) {
            try {
                if (governance != null) {
                    governance.close();
                }
                if (metrics != null) {
                    metrics.close();
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
        return metrics.registry();
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

    /** Registers what ends a kind of long-lived answer when the server stops. */
    public void onStopEnd(Runnable endAnswers) {
        endLongAnswers.add(endAnswers);
    }

    /** Ends every long-lived answer (before the web server stops); failures are logged. */
    public void endLongAnswers() {
        for (Runnable end : endLongAnswers) {
            try {
                end.run();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "ending long-lived answers failed", e);
            }
        }
    }

    @Override
    public void close() {
        try {
            governance.close();
            metrics.close();
        } finally {
            try {
                memory.close();
            } finally {
                cairn.close();
            }
        }
    }
}
