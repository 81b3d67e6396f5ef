package dev.cairn.server.cli;

import dev.cairn.server.CairnServer;
import dev.cairn.server.ServerSettings;
import io.helidon.config.Config;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cairn serve}: starts the HTTP server and runs until SIGINT or SIGTERM. */
@Command(name = "serve", description = "Start the HTTP server.", mixinStandardHelpOptions = true)
final class ServeCommand implements Callable<Integer> {

    @Option(
            names = "--data",
            paramLabel = "DIR",
            description = "data dir (default ./cairn-data, or CAIRN_DATA_DIR)")
    Path dataDir;

    @Option(names = "--port", paramLabel = "PORT", description = "TCP port (default 8080)")
    Integer port;

    @Option(
            names = "--host",
            paramLabel = "HOST",
            description = "interface to bind (default 127.0.0.1; 0.0.0.0 opens it to the network)")
    String host;

    @Option(
            names = "--db-url",
            paramLabel = "JDBC_URL",
            description = "PostgreSQL JDBC URL (or CAIRN_DB_URL); embedded store when absent")
    String dbUrl;

    @Override
    public Integer call() throws InterruptedException {
        ServerSettings resolved =
                Settings.resolve(Config.create().get("cairn"), dataDir, port, dbUrl);
        ServerSettings settings = host == null ? resolved : resolved.withHost(host);
        CairnServer server = CairnServer.start(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(
                        Thread.ofPlatform()
                                .name("cairn-shutdown")
                                .unstarted(
                                        () -> {
                                            server.close();
                                            stopped.countDown();
                                        }));
        String url = server.baseUri().toString();
        System.out.println(
                "Cairn is listening on "
                        + url
                        + " ("
                        + server.store().kind().name().toLowerCase(java.util.Locale.ROOT)
                        + " store"
                        + (settings.dbUrl().isBlank()
                                ? " in " + settings.dataDir().toAbsolutePath()
                                : "")
                        + ")");
        String token =
                server.generatedAdminToken()
                        .map(
                                t ->
                                        AdminTokenNotice.announce(
                                                t,
                                                System.console() != null,
                                                settings.dataDir(),
                                                System.out))
                        .orElse("$CAIRN_TOKEN");
        System.out.println("Try:");
        System.out.println("  curl " + url + "/health");
        System.out.println(
                "  curl -H 'Authorization: Bearer "
                        + token
                        + "' -H 'Content-Type: application/json' -d '{\"name\":\"runbooks\"}' "
                        + url
                        + "/v1/namespaces");
        System.out.flush();
        stopped.await();
        return 0;
    }
}
