package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.server.http.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator console in a real browser: a real server on a random port over an embedded store,
 * and the scripted session {@code console/src/test/browser/session.mjs} run with node, driving
 * Debian's headless chromium through playwright-core. Screenshots of each page and the session's
 * report.json are kept in {@code target/console-browser/}. Without chromium the test is skipped,
 * unless {@code CAIRN_REQUIRE_BROWSER} is set (CI sets it after scripts/setup-browser.sh).
 */
class ConsoleBrowserTest {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CONSOLE = Path.of("..", "console").toAbsolutePath().normalize();

    @TempDir Path dataDir;

    @Test
    void scriptedSessionPassesInHeadlessChromium() throws Exception {
        requireBrowser();
        Path artifacts = Path.of("target", "console-browser").toAbsolutePath();
        deleteScreenshotsOfEarlierRuns(artifacts);
        try (ServerFixture cairn = new ServerFixture(dataDir)) {
            assertThat(
                            cairn.call(
                                            "POST",
                                            "/v1/namespaces",
                                            CairnCalls.ADMIN,
                                            "{\"name\":\"ops\",\"description\":\"runbooks\"}")
                                    .status())
                    .isEqualTo(201);
            String readOnly =
                    cairn.call(
                                    "POST",
                                    "/v1/tokens",
                                    CairnCalls.ADMIN,
                                    "{\"name\":\"viewer\",\"roles\":[\"read\"],\"namespaces\":[\"ops\"]}")
                            .json()
                            .get("token")
                            .asText();
            var proposal =
                    cairn.call(
                            "POST",
                            "/v1/namespaces/ops/proposals",
                            CairnCalls.ADMIN,
                            "{\"type\":\"memory\",\"title\":\"Restart billing-api pod by pod\","
                                    + "\"description\":\"Seen in three incidents.\\nTags: billing,"
                                    + " restarts\",\"content\":\"Restart billing-api one pod at a"
                                    + " time so the vault is read on start.\","
                                    + "\"agentName\":\"incident-bot\",\"memoryType\":\"PROCEDURE\"}");
            assertThat(proposal.status()).isEqualTo(201);

            List<String> command =
                    List.of("node", CONSOLE.resolve("src/test/browser/session.mjs").toString());
            ProcessBuilder builder =
                    new ProcessBuilder(command)
                            .directory(CONSOLE.toFile())
                            .redirectErrorStream(true)
                            .redirectOutput(
                                    Files.createTempFile("console-session", ".log").toFile());
            builder.environment().put("CAIRN_URL", "http://localhost:" + cairn.server.port());
            builder.environment().put("CAIRN_NS", "ops");
            builder.environment().put("CAIRN_ADMIN_TOKEN", CairnCalls.ADMIN);
            builder.environment().put("CAIRN_READ_TOKEN", readOnly);
            builder.environment().put("CAIRN_ARTIFACTS", artifacts.toString());
            builder.environment().put("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
            Process session = builder.start();
            boolean finished = session.waitFor(5, TimeUnit.MINUTES);
            if (!finished) {
                session.destroyForcibly();
            }
            String log = Files.readString(builder.redirectOutput().file().toPath());
            assertThat(finished).as("the browser session finished in time; log:%n%s", log).isTrue();

            JsonNode report = Json.MAPPER.readTree(artifacts.resolve("report.json").toFile());
            List<String> failed = new ArrayList<>();
            report.get("steps")
                    .forEach(
                            s -> {
                                if (!s.get("ok").asBoolean()) {
                                    failed.add(s.get("name").asText() + ": " + s.path("detail"));
                                }
                            });
            assertThat(failed).as("failed steps; log:%n%s", log).isEmpty();
            assertThat(report.get("steps"))
                    .extracting(s -> s.get("name").asText())
                    .contains(
                            "a wrong token is refused",
                            "ingest a runbook by pasting it",
                            "retrieve, then open the stored trace",
                            "thumbs-up on a retrieve hit is recorded and listed",
                            "entity map: click an entity, expand its neighbourhood",
                            "write a memory, then invalidate it",
                            "review and apply a proposal",
                            "tokens: make one, see its secret once, revoke it",
                            "a read-only token sees no write buttons");
            assertThat(report.get("ok").asBoolean()).isTrue();
            assertThat(session.exitValue()).as("log:%n%s", log).isZero();

            // What the browser did is in Cairn, not only on screen.
            JsonNode memories =
                    cairn.call(
                                    "GET",
                                    "/v1/namespaces/ops/memories?status=INVALIDATED",
                                    readOnly,
                                    null)
                            .json();
            assertThat(memories.get("items"))
                    .extracting(m -> m.get("content").asText())
                    .anyMatch(c -> c.contains("Dana wants billing-api restarts"));
            JsonNode applied =
                    cairn.call("GET", "/v1/namespaces/ops/proposals?status=applied", readOnly, null)
                            .json();
            assertThat(applied.get("total").asInt()).isEqualTo(1);
            assertThat(applied.get("items").get(0).get("reviewNote").asText())
                    .isEqualTo("checked with the billing team");
            JsonNode feedback =
                    cairn.call("GET", "/v1/namespaces/ops/feedback", readOnly, null).json();
            // the thumb, and what the judged answer's supporting hits recorded (source judge)
            List<JsonNode> thumbs = new ArrayList<>();
            feedback.get("items")
                    .forEach(
                            j -> {
                                if (j.get("source").asText().equals("operator")) {
                                    thumbs.add(j);
                                } else {
                                    assertThat(j.get("source").asText()).isEqualTo("judge");
                                }
                            });
            assertThat(thumbs).hasSize(1);
            JsonNode thumb = thumbs.getFirst();
            assertThat(thumb.get("query").asText())
                    .isEqualTo("how do I issue a new certificate for billing-api?");
            assertThat(thumb.get("chunkId").asText()).startsWith("billing-cert-rotation#");
            assertThat(thumb.get("grade").asInt()).isEqualTo(1);
            assertThat(thumb.get("source").asText()).isEqualTo("operator");
            JsonNode tokens = cairn.call("GET", "/v1/tokens", CairnCalls.ADMIN, null).json();
            assertThat(tokens.get("items"))
                    .extracting(t -> t.get("name").asText())
                    .contains("viewer")
                    .doesNotContain("deploy-bot");
        }
        assertThat(artifacts.resolve("05-retrieve-trace.png")).exists();
        assertThat(artifacts.resolve("07-entity-map.png")).exists();
        assertThat(artifacts.resolve("06-feedback.png")).exists();
        assertThat(artifacts.resolve("14-tokens.png")).exists();
    }

    private static void deleteScreenshotsOfEarlierRuns(Path artifacts) throws java.io.IOException {
        if (Files.isDirectory(artifacts)) {
            try (var files = Files.list(artifacts)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    private static void requireBrowser() {
        boolean present =
                Files.isExecutable(CHROMIUM)
                        && Files.isDirectory(CONSOLE.resolve("node_modules/playwright-core"));
        String why =
                "needs "
                        + CHROMIUM
                        + " (scripts/setup-browser.sh) and console/node_modules (the console"
                        + " module's build)";
        if (System.getenv("CAIRN_REQUIRE_BROWSER") != null) {
            assertThat(present).as(why).isTrue();
        }
        Assumptions.assumeTrue(present, why);
    }
}
