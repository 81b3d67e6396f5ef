package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.embeddings.EmbeddingModels;
import dev.cairn.server.http.LogText;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.logging.LogRecord;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Service hygiene of a real server: loopback by default, owner-only data dir and files, stalled and
 * vanishing clients logged in one line each, log lines that caller text cannot forge, and relations
 * that stay inside their namespace.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServiceHygieneTest {

    static final String A = CairnCalls.ADMIN;

    Path dataDir;
    ServerFixture cairn;
    RawHttp raw;

    @BeforeAll
    void start(@TempDir Path dir) throws InterruptedException {
        dataDir = dir;
        cairn = new ServerFixture(dataDir.resolve("data"));
        raw = new RawHttp(cairn.server.port());
        // a cold start saves the model's converted weights in the background and logs a line when
        // done (the rename that publishes the file comes right before it): wait for that, so the
        // log assertions below see only what their clients provoke
        Waits.until(() -> weightsSaved(EmbeddingModels.weightCacheDir()), Duration.ofSeconds(60));
    }

    private static boolean weightsSaved(Path data) {
        try (Stream<Path> files = Files.list(data)) {
            return files.anyMatch(
                    f ->
                            f.getFileName().toString().startsWith("model-weights-bge-small")
                                    && f.getFileName().toString().endsWith(".bin"));
        } catch (IOException e) {
            return false;
        }
    }

    @AfterAll
    void stop() {
        if (cairn != null) {
            cairn.close();
        }
    }

    @Test
    void theServerBindsLoopbackUnlessToldOtherwise() {
        assertThat(ServerSettings.defaults(dataDir).host()).isEqualTo("127.0.0.1");
        assertThat(cairn.server.baseUri().getHost()).isEqualTo("localhost");
    }

    @Test
    void everythingUnderTheDataDirIsOwnerOnlyAfterWrites() throws Exception {
        var token =
                cairn.call(
                        "POST",
                        "/v1/tokens",
                        A,
                        "{\"name\":\"hygiene\",\"roles\":[\"read\"],\"namespaces\":[\"*\"]}");
        assertThat(token.status()).as(token.body()).isEqualTo(201);
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"private\"}");
        var memory =
                cairn.call(
                        "POST",
                        "/v1/namespaces/private/memories",
                        A,
                        "{\"type\":\"fact\",\"content\":\"Dana's badge number is 4471\"}");
        assertThat(memory.status()).as(memory.body()).isEqualTo(201);
        var document =
                cairn.call(
                        "POST",
                        "/v1/namespaces/private/documents",
                        A,
                        "{\"id\":\"payroll\",\"content\":\"# Payroll\\n\\nSalaries are paid"
                                + " on the 25th.\"}");
        assertThat(document.status()).as(document.body()).isEqualTo(201);
        Path dir = dataDir.resolve("data");
        Path lucene = dir.resolve("lucene");
        // the change log commits the Lucene indexes every 2 s: wait until both have a commit
        Waits.until(
                () ->
                        committed(lucene.resolve("memories"))
                                && committed(lucene.resolve("documents")),
                Duration.ofSeconds(30));
        assertThat(committed(lucene.resolve("memories"))).isTrue();

        List<Path> all;
        try (Stream<Path> paths = Files.walk(dir)) {
            all = paths.toList();
        }
        assertThat(all)
                .extracting(p -> dir.relativize(p).toString())
                .contains("cairn.db", "lucene/memories/private", "lucene/documents/private");
        for (Path p : all) {
            if (!Files.exists(p)) {
                continue; // a Lucene file merged away meanwhile
            }
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
                    .as(dir.relativize(p).toString())
                    .isEqualTo(Files.isDirectory(p) ? "rwx------" : "rw-------");
        }
    }

    /** Whether some namespace's Lucene directory under {@code index} has a commit. */
    private static boolean committed(Path index) {
        try (Stream<Path> paths = Files.walk(index)) {
            return paths.anyMatch(p -> p.getFileName().toString().startsWith("segments_"));
        } catch (IOException | java.io.UncheckedIOException e) {
            return false;
        }
    }

    @Test
    void aClientLeavingMidHeadersLogsOneLineWithoutAStackTrace() throws Exception {
        LogCapture logs = new LogCapture();
        List<LogRecord> records = logs.records();
        try {
            try (Socket socket = new Socket("127.0.0.1", cairn.server.port())) {
                socket.getOutputStream()
                        .write(
                                "GET /health HTTP/1.1\r\nHost: loc"
                                        .getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
            }
            Thread.sleep(1000);
        } finally {
            logs.close();
        }
        assertThat(records).filteredOn(r -> r.getThrown() != null).isEmpty();
        assertThat(records).hasSizeLessThanOrEqualTo(1);
    }

    @Test
    void loggedCallerTextCannotForgeALine() {
        assertThat(LogText.escape("/v1/x\nSEVERE: forged\u0000"))
                .isEqualTo("/v1/x\\u000ASEVERE: forged\\u0000")
                .doesNotContain("\n");
        assertThat(LogText.escape("a\\u000Ab")).isEqualTo("a\\u005Cu000Ab");
        assertThat(LogText.escape("x".repeat(500))).hasSize(201);
    }

    @Test
    void aRelationCannotReachAnotherNamespacesDocument() {
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"rel-a\"}");
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"rel-b\"}");
        var doc =
                cairn.call(
                        "POST",
                        "/v1/namespaces/rel-b/documents",
                        A,
                        "{\"id\":\"secret-plan\",\"title\":\"t\",\"content\":\"c\",\"format\":\"text\"}");
        assertThat(doc.status()).as(doc.body()).isEqualTo(201);
        var across =
                cairn.call(
                        "POST",
                        "/v1/namespaces/rel-a/relations",
                        A,
                        "{\"from\":\"document:secret-plan\",\"to\":\"billing\",\"type\":\"depends_on\"}");
        assertThat(across.status()).as(across.body()).isEqualTo(400);
        assertThat(across.json().path("detail").asText()).contains("not in namespace 'rel-a'");
        var entities = cairn.call("GET", "/v1/namespaces/rel-a/entities", A, null);
        assertThat(entities.body()).doesNotContain("secret-plan");

        var own =
                cairn.call(
                        "POST",
                        "/v1/namespaces/rel-b/relations",
                        A,
                        "{\"from\":\"document:secret-plan\",\"to\":\"billing\",\"type\":\"depends_on\"}");
        assertThat(own.status()).as(own.body()).isEqualTo(201);
    }
}
