package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.server.CairnServer;
import dev.cairn.server.ServerSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cairn ingest --server}: creates the namespace as local mode does and counts chunks. */
class IngestToServerTest {

    private static final String ADMIN = "ingest-test-admin";

    @TempDir static Path dir;
    private static CairnServer server;

    @BeforeAll
    static void start() {
        server =
                CairnServer.start(
                        ServerSettings.defaults(dir.resolve("data"))
                                .withPort(0)
                                .withAdminToken(ADMIN));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private record Outcome(int exit, String out, String err) {}

    private static synchronized Outcome run(String... args) {
        StringWriter err = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream previous = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            int exit = Main.run(new PrintWriter(err, true), args);
            return new Outcome(exit, out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(previous);
        }
    }

    @Test
    void createsTheNamespaceOnTheServerAndPrintsChunkCounts() throws Exception {
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(
                docs.resolve("restart.md"),
                "# Restart billing-api\n\n## Steps\nRestart one pod at a time.\n\n"
                        + "## Check\nThe health endpoint answers 200.\n");
        Files.writeString(docs.resolve("notes.txt"), "The order queue drains nightly.\n");
        String url = "localhost:" + server.port(); // no scheme: plain http
        Outcome o =
                run(
                        "ingest",
                        docs.toString(),
                        "--namespace",
                        "fresh",
                        "--create", // the flag the issue used, which picocli used to invert
                        "--server",
                        url,
                        "--token",
                        ADMIN);
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).contains("created namespace fresh");
        assertThat(o.out()).containsPattern("ingested 2 documents \\(([2-9]|\\d\\d+) chunks\\)");
        assertThat(server.store().namespace("fresh")).isPresent();

        Outcome again =
                run(
                        "ingest",
                        docs.toString(),
                        "--namespace",
                        "fresh",
                        "--server",
                        url,
                        "--token",
                        ADMIN);
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(again.out()).doesNotContain("created namespace");
    }

    @Test
    void noCreateRefusesAMissingNamespace() throws Exception {
        Path doc = Files.writeString(dir.resolve("one.md"), "# One\n\nText.\n");
        Outcome o =
                run(
                        "ingest",
                        doc.toString(),
                        "--namespace",
                        "absent",
                        "--no-create",
                        "--server",
                        "localhost:" + server.port(),
                        "--token",
                        ADMIN);
        assertThat(o.exit()).as(o.out() + o.err()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err()).contains("namespace 'absent' does not exist at localhost:");
        assertThat(server.store().namespace("absent")).isEmpty();
    }
}
