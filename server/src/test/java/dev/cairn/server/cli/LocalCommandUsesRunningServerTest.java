package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.retrieval.ingest.DocumentParser;
import dev.cairn.server.CairnServer;
import dev.cairn.server.ServerMarker;
import dev.cairn.server.ServerSettings;
import dev.cairn.store.Store;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local {@code cairn retrieve} on a data dir a running server holds asks that server (found
 * through its {@link ServerMarker}) instead of loading the encoder, and says so on stderr.
 */
class LocalCommandUsesRunningServerTest {

    @TempDir Path dir;

    private record Outcome(int exit, String out, String err) {}

    private static synchronized Outcome run(String... args) {
        StringWriter err = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        PrintStream previousOut = System.out;
        PrintStream previousErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        try {
            int exit = Main.run(new PrintWriter(err, true), args);
            return new Outcome(
                    exit,
                    out.toString(StandardCharsets.UTF_8),
                    stderr.toString(StandardCharsets.UTF_8) + err);
        } finally {
            System.setOut(previousOut);
            System.setErr(previousErr);
        }
    }

    @Test
    void retrieveWithoutServerOptionAsksTheServerHoldingTheDataDir() throws Exception {
        Path data = dir.resolve("data");
        try (CairnServer server =
                CairnServer.start(
                        ServerSettings.defaults(data)
                                .withPort(0)
                                .withAdminToken("local-cli-test-admin-token-0123456789"))) {
            server.store().createNamespace("ops", "");
            server.knowledge()
                    .ingest(
                            "ops",
                            DocumentParser.parseMarkdown(
                                    "# Rotate the ledger keys\n\nRun keyctl rotate on the vault.\n",
                                    "rotate-keys.md"));
            Path marker = data.resolve(ServerMarker.FILE);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(marker)))
                    .isEqualTo("rw-------");

            Outcome o =
                    run(
                            "retrieve",
                            "rotate ledger keys",
                            "--namespace",
                            "ops",
                            "--data",
                            data.toString());

            assertThat(o.exit()).as(o.err()).isZero();
            assertThat(o.err().lines().filter(l -> l.startsWith("cairn: ")).toList())
                    .containsExactly(
                            "cairn: using the server at http://localhost:"
                                    + server.port()
                                    + " (pid "
                                    + ProcessHandle.current().pid()
                                    + "), which holds "
                                    + data.toAbsolutePath());
            assertThat(o.out()).contains("rotate-keys");
        }
        assertThat(data.resolve(ServerMarker.FILE))
                .as("removed when the server stops")
                .doesNotExist();
    }

    @Test
    void aHeldDataDirWhoseServerDoesNotAnswerIsOneLineSuggestingServer() throws Exception {
        Path data = dir.resolve("held");
        try (Store store = Store.embedded(data)) {
            store.createNamespace("ops", "");
        }
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        new ServerMarker(4242, URI.create("http://localhost:" + closedPort), "secret-token")
                .write(data);
        Path lock = data.resolve("lucene/documents/write.lock");
        Files.createDirectories(lock.getParent());
        try (FileChannel channel =
                        FileChannel.open(
                                lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock held = channel.lock()) {
            Outcome o = run("retrieve", "how?", "--namespace", "ops", "--data", data.toString());
            assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
            assertThat(o.err().strip().lines().toList())
                    .singleElement()
                    .asString()
                    .contains("held by a Cairn server (pid 4242) that does not answer at")
                    .contains("localhost:" + closedPort)
                    .contains("--server URL --token TOKEN");
            assertThat(held.isValid()).isTrue();
        }
    }
}
