package dev.cairn.server.cli;

import dev.cairn.memory.service.MemoryService;
import dev.cairn.memory.service.MemoryServiceConfig;
import dev.cairn.server.Cairn;
import dev.cairn.server.MemorySettings;
import dev.cairn.server.ServerMarker;
import dev.cairn.server.ServerSettings;
import dev.cairn.store.Namespace;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import io.helidon.config.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Option;

/**
 * Where a command finds Cairn's data when it runs without a server. Before the encoder loads (about
 * 15 s of PyTorch start-up) the cheap checks run: the data dir exists, no running server holds it,
 * the namespace is there.
 */
final class LocalOptions {

    /** The embedded store's file in the data dir (see {@code Store.embedded}). */
    static final String EMBEDDED_DB_FILE = "cairn.db";

    @Option(
            names = "--data",
            paramLabel = "DIR",
            description = "data dir (or CAIRN_DATA_DIR); default: ./cairn-data")
    Path dataDir;

    @Option(
            names = "--db-url",
            paramLabel = "JDBC_URL",
            description =
                    "PostgreSQL JDBC URL (or CAIRN_DB_URL); default: none, the embedded store in"
                            + " the data dir")
    String dbUrl;

    ServerSettings settings() {
        return Settings.resolve(Config.create().get("cairn"), dataDir, null, dbUrl);
    }

    /**
     * Opens the data dir for writing; it is created when missing. The encoder loads as {@code
     * encoder} says.
     */
    Cairn open(Cairn.EncoderLoading encoder) {
        ServerSettings settings = settings();
        requireNotServed(settings);
        return Cairn.open(settings, encoder);
    }

    /**
     * Opens the data dir to read {@code namespace}; never creates a data dir, and fails before the
     * encoder loads when the namespace is not there. The encoder loads as {@code encoder} says.
     */
    Cairn openToRead(String namespace, Cairn.EncoderLoading encoder) {
        ServerSettings settings = settings();
        requireReadable(settings, namespace);
        return Cairn.open(settings, encoder);
    }

    /**
     * The memory service over {@code cairn} with the configured {@code cairn.memory} settings, its
     * maintenance not scheduled: a command runs once and exits.
     */
    MemoryService openMemory(Cairn cairn) {
        MemoryServiceConfig configured = MemorySettings.fromConfig(Config.create().get("cairn"));
        return cairn.openMemory(
                configured.withMaintenance(configured.maintenance().withInterval(Duration.ZERO)));
    }

    /** The cheap checks of {@link #openToRead}, on their own. */
    static void requireReadable(ServerSettings settings, String namespace) {
        Namespace.requireValidName(namespace);
        Path dir = settings.dataDir().toAbsolutePath();
        boolean embedded = settings.dbUrl().isBlank();
        if (embedded && !Files.isRegularFile(dir.resolve(EMBEDDED_DB_FILE))) {
            throw new IllegalArgumentException(
                    "no Cairn data in "
                            + dir
                            + "; ingest something first, pass --data DIR, or ask a running"
                            + " server with --server URL");
        }
        requireNotServed(settings);
        try (Store store = embedded ? Store.embedded(dir) : Store.postgres(settings.dbUrl())) {
            if (store.namespace(namespace).isEmpty()) {
                String known =
                        store.namespaces(PageRequest.first(100)).items().stream()
                                .map(Namespace::name)
                                .collect(Collectors.joining(", "));
                throw new IllegalArgumentException(
                        "namespace '"
                                + namespace
                                + "' does not exist in "
                                + (embedded ? dir.toString() : "the database")
                                + (known.isEmpty() ? " (it has none)" : "; it has: " + known));
            }
        }
    }

    /**
     * The server that holds this data dir, when one does and answers: a local command then asks it
     * over HTTP (with the token of its {@link ServerMarker}) instead of loading the encoder for 15
     * s, and says so in one line on stderr. Empty when no server holds the data dir.
     *
     * @throws IllegalArgumentException when a server holds the data dir but does not answer
     */
    /**
     * The server a command asks: {@code asked} when the command line names one, else the server
     * that holds this data dir ({@link #runningServer}); null when neither, and the command runs on
     * the data dir itself.
     */
    RemoteOptions askedOrRunning(RemoteOptions asked) {
        return asked != null && asked.remote() ? asked : runningServer().orElse(null);
    }

    Optional<RemoteOptions> runningServer() {
        ServerSettings settings = settings();
        Path dir = settings.dataDir().toAbsolutePath();
        // the marker, not the index locks: a server on a fresh data dir holds no index lock yet
        Optional<ServerMarker> marker = ServerMarker.holder(dir);
        if (marker.isEmpty()) {
            requireNotServed(settings); // held by a process that left no marker: say --server
            return Optional.empty();
        }
        ServerMarker server = marker.orElseThrow();
        if (!answersHealth(server.url())) {
            throw new IllegalArgumentException(
                    "the data dir "
                            + dir
                            + " is held by a Cairn server (pid "
                            + server.pid()
                            + ") that does not answer at "
                            + server.url()
                            + "; ask it with --server URL --token TOKEN once it is up, or stop it");
        }
        System.err.println(
                "cairn: using the server at "
                        + server.url()
                        + " (pid "
                        + server.pid()
                        + "), which holds "
                        + dir);
        return Optional.of(RemoteOptions.of(server.url().toString(), server.token()));
    }

    /** Whether {@code GET /health} answers 200 within two seconds. */
    private static boolean answersHealth(java.net.URI base) {
        try {
            java.net.http.HttpResponse<Void> response =
                    Health.CLIENT.send(
                            java.net.http.HttpRequest.newBuilder(base.resolve("/health"))
                                    .timeout(java.time.Duration.ofSeconds(2))
                                    .GET()
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Made on first use: picocli initialises this class for every command line, even --help. */
    private static final class Health {
        static final java.net.http.HttpClient CLIENT =
                java.net.http.HttpClient.newBuilder()
                        .connectTimeout(java.time.Duration.ofSeconds(2))
                        .build();
    }

    /**
     * Fails when a running server holds the data dir's Lucene indexes: opening them here would fail
     * on the index lock after the encoder loaded, with a message about Lucene.
     */
    static void requireNotServed(ServerSettings settings) {
        Path dir = settings.dataDir().toAbsolutePath();
        heldLock(dir.resolve("lucene"))
                .ifPresent(
                        lock -> {
                            throw new IllegalArgumentException(
                                    "the data dir "
                                            + dir
                                            + " is in use by a running Cairn server; ask that"
                                            + " server instead: --server URL --token TOKEN (for"
                                            + " example --server localhost:8080)");
                        });
    }

    /** A Lucene {@code write.lock} under {@code indexes} that another process holds. */
    static Optional<Path> heldLock(Path indexes) {
        if (!Files.isDirectory(indexes)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.walk(indexes, 3)) {
            return files.filter(f -> f.getFileName().toString().equals("write.lock"))
                    .filter(LocalOptions::lockedElsewhere)
                    .findFirst();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + indexes, e);
        }
    }

    /** Lucene's native lock is an OS file lock: if we can take it, nobody holds it. */
    private static boolean lockedElsewhere(Path lockFile) {
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true; // this very process holds it
        } catch (IOException e) {
            return false; // unreadable lock file: let Lucene report what is wrong
        }
    }
}
