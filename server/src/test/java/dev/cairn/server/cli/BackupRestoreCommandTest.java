package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.server.CairnServer;
import dev.cairn.server.ServerSettings;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn backup} while a server takes writes, and {@code cairn restore}: every write
 * acknowledged before the backup began is in the restored store, and a server on the restored data
 * dir rebuilds its indexes and recalls them; restoring over a store, into a served data dir or from
 * a folder that is no backup is one line and exit 2.
 */
class BackupRestoreCommandTest {

    static final String TOKEN = "backup-admin-token-0123456789";

    @TempDir Path dir;

    final AdminHttp admin = new AdminHttp(TOKEN);

    @Test
    void aBackupDuringWritesHoldsEveryWriteAcknowledgedBeforeItAndRestoresToAWorkingDataDir()
            throws Exception {
        Path data = dir.resolve("data");
        Path backup = dir.resolve("backup");
        Set<String> acknowledgedBefore;
        String reader;
        ConcurrentLinkedQueue<String> acknowledged = new ConcurrentLinkedQueue<>();
        try (CairnServer server =
                CairnServer.start(
                        ServerSettings.defaults(data).withPort(0).withAdminToken(TOKEN))) {
            int port = server.port();
            admin.call(
                    port,
                    "POST",
                    "/v1/namespaces",
                    "{\"name\":\"log\",\"recallScope\":\"namespace\"}");
            reader =
                    admin.call(
                                    port,
                                    "POST",
                                    "/v1/tokens",
                                    "{\"name\":\"reader\",\"roles\":[\"read\"],"
                                            + "\"namespaces\":[\"log\"]}")
                            .path("token")
                            .asText();
            assertThat(
                            admin.send(port, "GET", "/v1/namespaces/log/memories", null, reader)
                                    .statusCode())
                    .isEqualTo(200);
            AtomicBoolean writing = new AtomicBoolean(true);
            Thread writer =
                    Thread.ofPlatform()
                            .start(
                                    () -> {
                                        for (int i = 0; writing.get(); i++) {
                                            try {
                                                JsonNode m =
                                                        admin.call(
                                                                port,
                                                                "POST",
                                                                "/v1/namespaces/log/memories",
                                                                "{\"type\":\"fact\",\"content\":"
                                                                        + "\"Shift note "
                                                                        + i
                                                                        + ": the boiler pressure"
                                                                        + " read "
                                                                        + (10 + i % 7)
                                                                        + " bar.\"}");
                                                acknowledged.add(m.path("id").asText());
                                            } catch (Exception e) {
                                                throw new IllegalStateException(e);
                                            }
                                        }
                                    });
            while (acknowledged.size() < 15) {
                Thread.sleep(20);
            }
            acknowledgedBefore = new HashSet<>(acknowledged);
            var taken = IngestFixtures.run("backup", backup.toString(), "--data", data.toString());
            int afterBackup = acknowledged.size();
            while (acknowledged.size() < afterBackup + 5) {
                Thread.sleep(20);
            }
            writing.set(false);
            writer.join();
            assertThat(taken.exit()).as(taken.err()).isZero();
            assertThat(taken.out()).contains("backed up").contains("1 namespaces");

            // the data dir is served: restoring into it is refused at once
            var served =
                    IngestFixtures.run(
                            "restore", backup.toString(), "--data", data.toString(), "--replace");
            assertThat(served.exit()).isEqualTo(2);
            assertThat(served.err().strip()).contains("is served by pid").doesNotContain("\n");
        }
        assertThat(Files.list(backup).map(p -> p.getFileName().toString()).sorted().toList())
                .contains("backup.json", "cairn.db")
                .isSubsetOf("backup.json", "cairn.db", "entity-graph.snapshot");

        Path restored = dir.resolve("restored");
        var done = IngestFixtures.run("restore", backup.toString(), "--data", restored.toString());
        assertThat(done.exit()).as(done.err()).isZero();
        assertThat(done.out()).contains("rebuilt from the store at the next start");

        try (CairnServer server =
                CairnServer.start(
                        ServerSettings.defaults(restored).withPort(0).withAdminToken(TOKEN))) {
            int port = server.port();
            Set<String> found = new HashSet<>();
            admin.call(port, "GET", "/v1/namespaces/log/memories?limit=1000", null)
                    .path("items")
                    .forEach(m -> found.add(m.path("id").asText()));
            assertThat(found).containsAll(acknowledgedBefore);
            assertThat(found).isSubsetOf(acknowledged);
            // its memory index was built from the restored store
            JsonNode recalled =
                    admin.call(
                            port,
                            "POST",
                            "/v1/namespaces/log/recall",
                            "{\"query\":\"Shift note 3 boiler pressure\",\"scope\":\"namespace\"}");
            assertThat(recalled.path("memories").size()).isPositive();
            assertThat(recalled.at("/memories/0/memory/content").asText()).contains("Shift note");
            // the token made before the backup came with it, in the store (no tokens.json)
            assertThat(restored.resolve("tokens.json")).doesNotExist();
            HttpResponse<String> asReader =
                    admin.send(port, "GET", "/v1/namespaces/log/memories", null, reader);
            assertThat(asReader.statusCode()).as(asReader.body()).isEqualTo(200);
        }
    }

    @Test
    void restoringOverAStoreOrFromAFolderThatIsNoBackupIsRefusedInOneLine() throws Exception {
        Path data = dir.resolve("data");
        Path backup = dir.resolve("backup");
        try (CairnServer server =
                CairnServer.start(
                        ServerSettings.defaults(data).withPort(0).withAdminToken(TOKEN))) {
            admin.call(server.port(), "POST", "/v1/namespaces", "{\"name\":\"one\"}");
        }
        assertThat(
                        IngestFixtures.run("backup", backup.toString(), "--data", data.toString())
                                .exit())
                .isZero();
        var twice = IngestFixtures.run("backup", backup.toString(), "--data", data.toString());
        assertThat(twice.exit()).isEqualTo(2);
        assertThat(twice.err()).contains("is not an empty folder");

        var over = IngestFixtures.run("restore", backup.toString(), "--data", data.toString());
        assertThat(over.exit()).isEqualTo(2);
        assertThat(over.err().strip())
                .contains("already holds a Cairn store")
                .contains("--replace")
                .doesNotContain("\n");
        Files.createDirectories(data.resolve("lucene").resolve("memories"));
        var replaced =
                IngestFixtures.run(
                        "restore", backup.toString(), "--data", data.toString(), "--replace");
        assertThat(replaced.exit()).as(replaced.err()).isZero();
        assertThat(data.resolve("lucene")).doesNotExist();

        Files.writeString(backup.resolve("cairn.db"), "not a database");
        var damaged =
                IngestFixtures.run(
                        "restore", backup.toString(), "--data", dir.resolve("x").toString());
        assertThat(damaged.exit()).isEqualTo(2);
        assertThat(damaged.err()).contains("backup");
        assertThat(dir.resolve("x").resolve("cairn.db")).doesNotExist();

        var notBackup =
                IngestFixtures.run(
                        "restore", dir.toString(), "--data", dir.resolve("y").toString());
        assertThat(notBackup.exit()).isEqualTo(2);
        assertThat(notBackup.err()).contains("not a Cairn backup");

        var postgres =
                IngestFixtures.run(
                        "backup",
                        dir.resolve("z").toString(),
                        "--db-url",
                        "jdbc:postgresql://127.0.0.1:5432/cairn");
        assertThat(postgres.exit()).isEqualTo(2);
        assertThat(postgres.err()).contains("pg_dump");
        assertThat(List.of(dir.resolve("z").toFile().exists())).containsExactly(false);
    }
}
