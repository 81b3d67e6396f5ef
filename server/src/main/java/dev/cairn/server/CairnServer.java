package dev.cairn.server;

import dev.cairn.memory.service.MemoryService;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.server.auth.ApiToken;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.ClientDisconnects;
import dev.cairn.server.http.ProtocolErrors;
import dev.cairn.server.http.RequestDeadlines;
import dev.cairn.store.Store;
import io.helidon.common.socket.SocketOptions;
import io.helidon.common.tls.Tls;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http1.Http1Config;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A running Cairn server: the {@link ServerComponents} and the Helidon web server in front, routed
 * by {@link CairnRouting}. {@link #close()} stops accepting requests, lets in-flight ones finish
 * within the grace period and then closes the components. Thread-safe.
 */
public final class CairnServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(CairnServer.class.getName());

    private final ServerSettings settings;
    private final ServerComponents components;
    private final RequestDeadlines deadlines;
    private final WebServer web;
    private final ServerMarker marker;

    private CairnServer(ServerSettings settings) {
        this.settings = settings;
        ListenerSettings listener = settings.listener();
        // Read before the store opens and the model loads: a bad key file fails in a second.
        Optional<Tls> tls = ServerTls.load(listener.tls());
        StartupPhases phases = new StartupPhases();
        this.components = ServerComponents.open(settings, phases);
        ClientDisconnects.install();
        this.deadlines = new RequestDeadlines(listener.headerTimeout(), listener.bodyTimeout());
        try {
            WebServerConfig.Builder builder =
                    WebServer.builder()
                            .host(settings.host())
                            .port(settings.port())
                            // No Helidon payload limit: its 413 is not problem+json.
                            // Json.readBody enforces cairn.server.max-body-bytes instead.
                            .shutdownGracePeriod(settings.shutdownGrace())
                            // Errors found before routing answer problem+json too.
                            .directHandlers(ProtocolErrors.handlers())
                            // Stalled and trickling clients are let go: they cannot pile up
                            // and starve the others (see RequestDeadlines for why all three
                            // hooks, options, listener and filter, are needed).
                            .connectionOptions(deadlines.watching(SocketOptions.create()))
                            // the one HTTP/1 configuration: with the discovered default beside
                            // it, a request line Helidon cannot parse got no answer at all
                            .protocolsDiscoverServices(false)
                            .addProtocol(
                                    Http1Config.builder().addReceiveListener(deadlines).build())
                            .idleConnectionTimeout(listener.idleTimeout())
                            .idleConnectionPeriod(idleCheckPeriod(listener.idleTimeout()))
                            .shutdownHook(false)
                            .routing(
                                    phases.time(
                                            "routing",
                                            () ->
                                                    CairnRouting.register(
                                                            HttpRouting.builder()
                                                                    .addFilter(deadlines),
                                                            components)));
            tls.ifPresent(builder::tls);
            this.web = phases.time("http", () -> listen(builder.build(), settings.port()));
        } catch (RuntimeException e) {
            deadlines.close();
            components.close();
            throw e;
        }
        try {
            // The local command line on this data dir asks this server instead of loading the
            // encoder itself (ServerMarker); its token lives as long as this process.
            String local =
                    components
                            .tokens()
                            .createSession(
                                    LOCAL_CLI_TOKEN,
                                    Set.of(Role.ADMIN),
                                    List.of(ApiToken.ALL_NAMESPACES));
            this.marker = new ServerMarker(ProcessHandle.current().pid(), baseUri(), local);
            marker.write(settings.dataDir());
        } catch (RuntimeException e) {
            web.stop();
            components.close();
            throw e;
        }
        LOG.log(Level.INFO, phases.readyLine());
    }

    /**
     * Starts {@code web}; fails when it does not listen. The web server does not throw when its
     * port is taken (since {@code cairn serve} checked it, by a process that took it meanwhile): it
     * logs the bind failure and runs without a listener, on port -1.
     *
     * @throws PortInUse when the port was taken
     */
    private static WebServer listen(WebServer web, int port) {
        if (PortInUse.bindFailed(web::start)) {
            web.stop();
            throw PortInUse.at(port);
        }
        if (!web.isRunning()) {
            web.stop();
            throw new IllegalStateException("the web server did not start (see the log above)");
        }
        return web;
    }

    /** The name of the token the data dir's {@link ServerMarker} carries. */
    public static final String LOCAL_CLI_TOKEN = "local-cli";

    /** Idle connections are closed at most a fifth of the timeout late, checked at most 1/s. */
    private static Duration idleCheckPeriod(Duration idleTimeout) {
        return Duration.ofMillis(Math.clamp(idleTimeout.toMillis() / 5, 200, 5_000));
    }

    /** Opens the store, starts the server and answers once it accepts connections. */
    public static CairnServer start(ServerSettings settings) {
        return new CairnServer(settings);
    }

    public int port() {
        return web.port();
    }

    public URI baseUri() {
        String host =
                settings.host().equals("0.0.0.0") || settings.host().equals("127.0.0.1")
                        ? "localhost"
                        : settings.host();
        String scheme = settings.listener().tls().enabled() ? "https" : "http";
        return URI.create(scheme + "://" + host + ":" + port());
    }

    /** How many connections were closed for not sending a complete request head in time. */
    public long closedForStalling() {
        return deadlines.closedForStalling();
    }

    /** How many request bodies did not arrive within the body timeout. */
    public long timedOutBodies() {
        return deadlines.timedOutBodies();
    }

    /** The admin token's secret when this start generated it; it is never shown again. */
    public Optional<String> generatedAdminToken() {
        return components.generatedAdminToken();
    }

    public Store store() {
        return components.store();
    }

    public MemoryService memory() {
        return components.memory();
    }

    public KnowledgeBase knowledge() {
        return components.knowledge();
    }

    /**
     * Stops: long-lived answers end (MCP's listening streams, ARK message watches), no new
     * connections, in-flight requests get the grace period, then the components close. Logs {@code
     * stopping} and {@code stopped in N ms (web server N ms, components N ms)}.
     */
    @Override
    public void close() {
        LOG.log(Level.INFO, "stopping");
        long start = System.nanoTime();
        long webMillis = 0;
        try {
            marker.remove(settings.dataDir());
            components.endLongAnswers();
            web.stop();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "web server did not stop cleanly", e);
        } finally {
            webMillis = (System.nanoTime() - start) / 1_000_000;
            deadlines.close();
            components.close();
        }
        long totalMillis = (System.nanoTime() - start) / 1_000_000;
        LOG.log(
                Level.INFO,
                "stopped in "
                        + totalMillis
                        + " ms (web server "
                        + webMillis
                        + " ms, components "
                        + (totalMillis - webMillis)
                        + " ms)");
    }
}
