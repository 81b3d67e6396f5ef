package dev.cairn.server.cli;

import static dev.cairn.server.cli.IngestFixtures.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.retrieval.store.StoredDocument;
import dev.cairn.server.CairnServer;
import dev.cairn.server.ServerSettings;
import dev.cairn.server.cli.IngestFixtures.Outcome;
import dev.cairn.server.http.Json;
import dev.cairn.store.PageRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn ingest --server}: creates the namespace as local mode does, counts chunks, skips
 * files without a body, and (with {@code skipUnchanged}) embeds only what the server had not stored
 * from the same input, so a run again or a resumed one gives no document a new version.
 */
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

    private static Outcome ingest(Path folder, String namespace) {
        return run(
                "ingest",
                folder.toString(),
                "--namespace",
                namespace,
                "--server",
                "localhost:" + server.port(),
                "--token",
                ADMIN);
    }

    private static Map<String, Long> versions(String namespace) {
        return server
                .knowledge()
                .documents()
                .documents(namespace, PageRequest.first(100), "")
                .items()
                .stream()
                .collect(Collectors.toMap(StoredDocument::id, StoredDocument::version));
    }

    @Test
    void throughAServerFilesWithoutABodyAreSkippedAndARunAgainEmbedsNothing() throws Exception {
        Path site = IngestFixtures.hugoSite(dir.resolve("site-again"));

        Outcome first = ingest(site, "again");

        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.err().lines().filter(l -> l.startsWith("cairn: skipped "))).hasSize(3);
        assertThat(first.out())
                .containsPattern(
                        "ingested 4 documents \\(\\d+ chunks\\) into again at localhost:\\d+ in"
                                + " [0-9.]+ s \\([0-9.]+ documents/s\\); 0 unchanged, 3 skipped"
                                + " \\(no content: 3\\), 0 failed");
        assertThat(versions("again")).containsOnlyKeys(IngestFixtures.PAGES).containsValues(1L);

        Outcome again = ingest(site, "again");

        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(again.out())
                .contains("ingested 0 documents (0 chunks) into again")
                .contains("; 4 unchanged, 3 skipped (no content: 3), 0 failed");
        assertThat(versions("again"))
                .as("no document got a new version")
                .containsOnlyKeys(IngestFixtures.PAGES)
                .allSatisfy((id, version) -> assertThat(version).isEqualTo(1L));
    }

    @Test
    void anInterruptedIngestThroughAServerResumesWithWhatItHadNotStored() throws Exception {
        Path site = IngestFixtures.hugoSite(dir.resolve("site-resume"));
        // the run that stopped: only the storage section had been stored
        Path network = site.resolve("network");
        Path aside = Files.move(network, dir.resolve("network-aside"));
        assertThat(ingest(site, "resume").out()).contains("ingested 2 documents");
        Files.move(aside, network);

        Outcome resumed = ingest(site, "resume");

        assertThat(resumed.exit()).as(resumed.err()).isZero();
        assertThat(resumed.out())
                .contains("ingested 2 documents")
                .contains("; 2 unchanged, 3 skipped (no content: 3), 0 failed");
        assertThat(versions("resume"))
                .containsOnlyKeys(IngestFixtures.PAGES)
                .allSatisfy((id, version) -> assertThat(version).isEqualTo(1L));
    }

    @Test
    void aChangedFileIsSentAgainAndOnlyItGetsANewVersion() throws Exception {
        Path site = IngestFixtures.hugoSite(dir.resolve("site-changed"));
        assertThat(ingest(site, "changed").exit()).isZero();
        IngestFixtures.page(
                site,
                "network/egress.md",
                "# Egress blocked\n\nThe egress firewall denies it: add an allow rule.\n");

        Outcome o = ingest(site, "changed");

        assertThat(o.out()).contains("ingested 1 documents").contains("; 3 unchanged,");
        assertThat(versions("changed"))
                .containsEntry("network.egress", 2L)
                .containsEntry("network.dns-timeouts", 1L)
                .containsEntry("storage.disk-pressure", 1L)
                .containsEntry("storage.volume-resize", 1L);
    }

    @Test
    void aDocumentTheServerRefusesFailsAloneAndTheRestAreStored() throws Exception {
        Path site = IngestFixtures.hugoSite(dir.resolve("site-refused"));
        Path bad =
                IngestFixtures.page(
                        site,
                        "storage/ledger.md",
                        "---\nentities:\n  - {name: ledger, kind: spaceship}\n---\n# Ledger\n\n"
                                + "The ledger volume is backed up nightly.\n");

        Outcome o = ingest(site, "refused");

        assertThat(o.exit()).as(o.err()).isEqualTo(Main.EXIT_FAILURE);
        assertThat(o.err()).contains("cairn: failed to ingest " + bad + ": ").contains("spaceship");
        assertThat(o.out()).contains("ingested 4 documents").contains("1 failed");
        assertThat(versions("refused")).containsOnlyKeys(IngestFixtures.PAGES);
    }

    @Test
    void aRunTheServerStopsStillEndsWithTheSummaryOfWhatItDid() throws Exception {
        Path site = IngestFixtures.hugoSite(dir.resolve("site-stopped"));
        HttpClient http = HttpClient.newHttpClient();
        String base = "http://localhost:" + server.port();
        HttpResponse<String> namespace =
                http.send(
                        HttpRequest.newBuilder(URI.create(base + "/v1/namespaces"))
                                .header("Authorization", "Bearer " + ADMIN)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"stopped\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(namespace.statusCode()).isEqualTo(201);
        HttpResponse<String> token =
                http.send(
                        HttpRequest.newBuilder(URI.create(base + "/v1/tokens"))
                                .header("Authorization", "Bearer " + ADMIN)
                                .header("Content-Type", "application/json")
                                .POST(
                                        HttpRequest.BodyPublishers.ofString(
                                                "{\"name\":\"reader\",\"roles\":[\"read\"],"
                                                        + "\"namespaces\":[\"stopped\"]}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(token.statusCode()).as(token.body()).isEqualTo(201);
        String reader = Json.MAPPER.readTree(token.body()).path("token").asText();

        // a read-only token: the first document sent is a 403, which is no document's fault
        Outcome o =
                run(
                        "ingest",
                        site.toString(),
                        "--namespace",
                        "stopped",
                        "--server",
                        "localhost:" + server.port(),
                        "--token",
                        reader);

        // a refusal of the request (4xx) is a usage mistake, as it would be without a server
        assertThat(o.exit()).as(o.err()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err()).contains("cairn: server answered 403");
        assertThat(o.out())
                .contains(
                        "ingested 0 documents (0 chunks) into stopped at localhost:"
                                + server.port())
                .contains("; 0 unchanged, 1 skipped (no content: 1), 0 failed");
        assertThat(versions("stopped")).isEmpty();
    }
}
