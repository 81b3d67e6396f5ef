package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.server.CairnServer;
import dev.cairn.server.ServerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn export} and {@code cairn import} through a running server and on a data dir no
 * server holds: the same file either way (but for its time stamp), an import that answers what it
 * wrote, a broken file refused in one line with exit 2.
 */
class ExportImportCommandTest {

    static final String TOKEN = "transfer-admin-token-0123456789";

    @TempDir Path dir;

    final AdminHttp admin = new AdminHttp(TOKEN);

    @Test
    void exportAndImportThroughTheServerAndOnTheDataDir() throws Exception {
        Path data = dir.resolve("data");
        Path viaServer = dir.resolve("via-server.jsonl");
        Path local = dir.resolve("local.jsonl");
        try (CairnServer server =
                CairnServer.start(
                        ServerSettings.defaults(data).withPort(0).withAdminToken(TOKEN))) {
            int port = server.port();
            admin.call(
                    port,
                    "POST",
                    "/v1/namespaces",
                    "{\"name\":\"garden\",\"description\":\"the allotment\",\"recallScope\":\"namespace\"}");
            for (String fact :
                    List.of(
                            "Tomatoes are watered at dusk in July.",
                            "The compost is turned every second Sunday.",
                            "Slugs are kept off the lettuce with copper tape.")) {
                admin.call(
                        port,
                        "POST",
                        "/v1/namespaces/garden/memories",
                        "{\"type\":\"fact\",\"content\":\"" + fact + "\",\"userId\":\"ines\"}");
            }
            String url = "http://localhost:" + port;
            var exported =
                    IngestFixtures.run(
                            "export",
                            "--namespace",
                            "garden",
                            "--out",
                            viaServer.toString(),
                            "--server",
                            url,
                            "--token",
                            TOKEN);
            assertThat(exported.exit()).as(exported.err()).isZero();
            assertThat(Files.readAllLines(viaServer)).hasSize(5); // header, 3 memories, end

            var imported =
                    IngestFixtures.run(
                            "import",
                            viaServer.toString(),
                            "--namespace",
                            "garden-copy",
                            "--server",
                            url,
                            "--token",
                            TOKEN);
            assertThat(imported.exit()).as(imported.err()).isZero();
            assertThat(imported.out()).contains("\"written\":3").contains("\"embedded\":0");
            JsonNode copies =
                    admin.call(
                            port, "GET", "/v1/namespaces/garden-copy/memories?userId=ines", null);
            assertThat(copies.path("items").size()).isEqualTo(3);
            // created by the command with the exported namespace's settings
            JsonNode copy = admin.call(port, "GET", "/v1/namespaces/garden-copy", null);
            assertThat(copy.path("description").asText()).isEqualTo("the allotment");
            assertThat(copy.path("recallScope").asText()).isEqualTo("namespace");
        }
        // no server holds the data dir now: the command opens it itself
        var offline =
                IngestFixtures.run(
                        "export",
                        "--namespace",
                        "garden",
                        "--out",
                        local.toString(),
                        "--data",
                        data.toString());
        assertThat(offline.exit()).as(offline.err()).isZero();
        List<String> a = Files.readAllLines(viaServer);
        List<String> b = Files.readAllLines(local);
        assertThat(b.subList(1, b.size())).isEqualTo(a.subList(1, a.size()));

        Path broken = dir.resolve("broken.jsonl");
        Files.write(broken, a.subList(0, 3)); // header and two memories: no end line
        var refused =
                IngestFixtures.run(
                        "import",
                        broken.toString(),
                        "--namespace",
                        "garden-broken",
                        "--data",
                        data.toString());
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err().strip())
                .contains("truncated export file: line 3 is the last and there is no end line")
                .doesNotContain("\n")
                .doesNotContain("Exception");
        // the namespace the command made for the refused file is gone again
        var again =
                IngestFixtures.run(
                        "export",
                        "--namespace",
                        "garden-broken",
                        "--out",
                        dir.resolve("none.jsonl").toString(),
                        "--data",
                        data.toString());
        assertThat(again.exit()).isEqualTo(2);
        assertThat(again.err()).contains("namespace 'garden-broken' does not exist");
    }
}
