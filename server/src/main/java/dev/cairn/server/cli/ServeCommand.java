package dev.cairn.server.cli;

import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.server.CairnServer;
import dev.cairn.server.PortInUse;
import dev.cairn.server.ServerMarker;
import dev.cairn.server.ServerSettings;
import io.helidon.config.Config;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cairn serve}: starts the HTTP server and runs until SIGINT or SIGTERM. What can be found
 * wrong in a second is checked before the model loads (seconds of PyTorch start-up): another server
 * on the data dir, the port taken, a TLS key that does not open.
 */
@Command(
        name = "serve",
        description = "Start the HTTP server.",
        mixinStandardHelpOptions = true,
        footerHeading = "%nEnvironment:%n",
        footer = {
            "  CAIRN_DATA_DIR     data dir, when --data is not given",
            "  CAIRN_PORT         TCP port, when --port is not given",
            "  CAIRN_DB_URL       PostgreSQL JDBC URL, when --db-url is not given",
            "  CAIRN_ADMIN_TOKEN  admin token, at least 32 characters (default: generated",
            "                     at the first start)",
            "  CAIRN_JAVA_OPTS    more JVM options, read by the ./cairn launcher",
            "  CAIRN_CDS          0 turns the launcher's class-data-sharing archive off",
            "  CAIRN_<KEY>        any key of application.yaml, e.g. CAIRN_SERVER_HOST for",
            "                     cairn.server.host (README: Configuration)"
        })
final class ServeCommand implements Callable<Integer> {

    private static final System.Logger LOG = System.getLogger(ServeCommand.class.getName());

    /** Set by the launcher when this run's exit writes a class-data archive (its path). */
    static final String CDS_WRITING_PROPERTY = "cairn.cds.writing";

    @Option(
            names = "--data",
            paramLabel = "DIR",
            description = "data dir (or CAIRN_DATA_DIR); default: ./cairn-data")
    Path dataDir;

    @Option(
            names = "--port",
            paramLabel = "PORT",
            description = "TCP port (or CAIRN_PORT; 0 picks a free one); default: 8080")
    Integer port;

    @Option(
            names = "--host",
            paramLabel = "HOST",
            description = "interface to bind; 0.0.0.0 opens it to the network; default: 127.0.0.1")
    String host;

    @Option(
            names = "--db-url",
            paramLabel = "JDBC_URL",
            description =
                    "PostgreSQL JDBC URL (or CAIRN_DB_URL); default: none, the embedded store in"
                            + " the data dir")
    String dbUrl;

    @Override
    public Integer call() throws InterruptedException {
        ServerSettings resolved =
                Settings.resolve(Config.create().get("cairn"), dataDir, port, dbUrl);
        ServerSettings settings = host == null ? resolved : resolved.withHost(host);
        requireDataDirFree(settings.dataDir());
        PortInUse.requireFree(settings.host(), settings.port());
        // PyTorch's native library takes seconds to load: let it while the configuration is read
        // and the store opens
        EmbeddingModels.startRuntime();
        CairnServer server = CairnServer.start(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(
                        Thread.ofPlatform()
                                .name("cairn-shutdown")
                                .unstarted(
                                        () -> {
                                            try {
                                                server.close();
                                                announceArchive();
                                            } finally {
                                                StoppingLogManager.stopped();
                                                stopped.countDown();
                                            }
                                        }));
        StoppingLogManager.holdUntilStopped();
        String store =
                server.store().kind().name().toLowerCase(Locale.ROOT)
                        + " store"
                        + (settings.dbUrl().isBlank()
                                ? " in " + settings.dataDir().toAbsolutePath()
                                : "");
        // On a terminal the generated token is shown; otherwise (a service manager, a log file) it
        // goes to an owner-only file, so the secret never lands in a log.
        ServeBanner.AdminToken token =
                AdminTokenNotice.banner(
                        server.generatedAdminToken(),
                        System.console() != null,
                        !settings.adminToken().isBlank(),
                        settings.dataDir());
        ServeBanner.lines(server.baseUri().toString(), store, token).forEach(System.out::println);
        System.out.flush();
        stopped.await();
        return 0;
    }

    /**
     * Says, after "stopped", why the process takes seconds more to exit when it does: the JVM
     * writes the class-data archive the launcher asked for (the first stop after a build; 10-20 s
     * on a busy machine), which makes the next start faster.
     */
    private static void announceArchive() {
        String archive = System.getProperty(CDS_WRITING_PROPERTY, "");
        if (!archive.isBlank()) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "the JVM now writes the class-data archive {0} for faster starts (once after"
                            + " each build; seconds)",
                    archive);
        }
    }

    /**
     * Fails at once when another process holds the data dir: a running server (its {@link
     * ServerMarker}, whose process is alive) or anything holding its index locks (a server still
     * starting, a local command). Found later, it would fail after the model loaded, on a Lucene
     * lock.
     */
    static void requireDataDirFree(Path dataDir) {
        Path dir = dataDir.toAbsolutePath();
        Optional<ServerMarker> holder = ServerMarker.holder(dir);
        if (holder.isPresent()) {
            throw new IllegalArgumentException(
                    "data dir "
                            + dir
                            + " is already served by pid "
                            + holder.get().pid()
                            + " at "
                            + holder.get().url()
                            + "; stop that server or pass --data DIR");
        }
        if (LocalOptions.heldLock(dir.resolve("lucene")).isPresent()) {
            throw new IllegalArgumentException(
                    "data dir "
                            + dir
                            + " is in use by another Cairn process (a server starting, or a"
                            + " command working on it); wait for it or pass --data DIR");
        }
    }
}
