package dev.cairn.server.cli;

import dev.cairn.server.CairnServer;
import dev.cairn.server.ServerSettings;
import io.helidon.config.Config;
import java.nio.file.Path;
import java.util.Optional;
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
        String store =
                server.store().kind().name().toLowerCase(java.util.Locale.ROOT)
                        + " store"
                        + (settings.dbUrl().isBlank()
                                ? " in " + settings.dataDir().toAbsolutePath()
                                : "");
        // On a terminal the generated token is shown; otherwise (a service manager, a log file) it
        // goes to an owner-only file, so the secret never lands in a log.
        boolean terminal = System.console() != null;
        Optional<String> generated = server.generatedAdminToken();
        Optional<Path> tokenFile =
                generated
                        .filter(t -> !terminal)
                        .map(t -> AdminTokenNotice.write(t, settings.dataDir()));
        ServeBanner.lines(
                        server.baseUri().toString(),
                        store,
                        generated.filter(t -> terminal),
                        tokenFile)
                .forEach(System.out::println);
        System.out.flush();
        stopped.await();
        return 0;
    }
}
