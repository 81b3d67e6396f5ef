package dev.cairn.server;

import dev.cairn.memory.service.MemoryService;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.server.auth.ApiToken;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.ClientDisconnects;
import dev.cairn.server.http.ProtocolErrors;
import dev.cairn.store.Store;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import java.lang.System.Logger.Level;
import java.net.URI;
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

    /** How often connections are checked against {@link ServerSettings#IDLE_TIMEOUT}. */
    private static final java.time.Duration IDLE_CHECK_PERIOD = java.time.Duration.ofSeconds(5);

    private final ServerSettings settings;
    private final ServerComponents components;
    private final WebServer web;
    private final ServerMarker marker;

    private CairnServer(ServerSettings settings) {
        this.settings = settings;
        this.components = ServerComponents.open(settings);
        ClientDisconnects.install();
        try {
            this.web =
                    WebServer.builder()
                            .host(settings.host())
                            .port(settings.port())
                            // No Helidon payload limit: its 413 is not problem+json.
                            // Json.readBody enforces cairn.server.max-body-bytes instead.
                            .shutdownGracePeriod(settings.shutdownGrace())
                            // Errors found before routing answer problem+json too.
                            .directHandlers(ProtocolErrors.handlers())
                            // A client that stalls mid-request or idles is let go: stalled
                            // connections cannot pile up and starve the others.
                            .connectionOptions(o -> o.readTimeout(ServerSettings.READ_TIMEOUT))
                            .idleConnectionTimeout(ServerSettings.IDLE_TIMEOUT)
                            .idleConnectionPeriod(IDLE_CHECK_PERIOD)
                            .shutdownHook(false)
                            .routing(CairnRouting.register(HttpRouting.builder(), components))
                            .build()
                            .start();
        } catch (RuntimeException e) {
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
    }

    /** The name of the token the data dir's {@link ServerMarker} carries. */
    public static final String LOCAL_CLI_TOKEN = "local-cli";

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
        return URI.create("http://" + host + ":" + port());
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

    @Override
    public void close() {
        try {
            marker.remove(settings.dataDir());
            web.stop();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "web server did not stop cleanly", e);
        } finally {
            components.close();
        }
    }
}
