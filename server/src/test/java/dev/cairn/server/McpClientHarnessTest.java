package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.server.http.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cairn's MCP server driven by real clients: {@code src/test/mcp-client/harness.mjs} runs the
 * official MCP TypeScript SDK client over streamable HTTP and over stdio ({@code cairn mcp}
 * forwarding to the server, and on a data dir), and the MCP Inspector CLI, against a server on a
 * random port. The harness asserts; this test checks its exit code and JSON report (every check
 * passed, every transport present). Needs Node 20+ and npm: {@code npm ci} runs once when the
 * harness's {@code node_modules} is missing. Without node the test is skipped, unless {@value
 * #REQUIRE_ENV} is set.
 */
class McpClientHarnessTest {

    static final String REQUIRE_ENV = "CAIRN_REQUIRE_NODE";
    static final Path HARNESS = Path.of("src/test/mcp-client").toAbsolutePath();

    @TempDir Path dataDir;
    @TempDir Path localDataDir;
    @TempDir Path scratch;

    /** The server's store; the PostgreSQL subclass overrides it. */
    ServerSettings settings(Path dir) {
        return ServerSettings.defaults(dir).withPort(0).withAdminToken(CairnCalls.ADMIN);
    }

    /** The targets besides HTTP and stdio forwarding, and their environment. */
    Map<String, String> extraTargets() throws IOException {
        // `cairn mcp --data` needs the namespace to exist and no server on the data dir: make it
        // with a server that is closed before the harness starts.
        try (ServerFixture local = new ServerFixture(localDataDir)) {
            assertThat(
                            local.call(
                                            "POST",
                                            "/v1/namespaces",
                                            CairnCalls.ADMIN,
                                            "{\"name\":\"desk\"}")
                                    .status())
                    .isEqualTo(201);
        }
        return Map.of(
                "CAIRN_TARGETS", "http,stdio-server,stdio-data",
                "CAIRN_STDIO_DATA", localDataDir.toString(),
                "CAIRN_STDIO_NAMESPACE", "desk");
    }

    @Test
    void theTypeScriptSdkClientAndTheInspectorWorkOverEveryTransport() throws Exception {
        Assumptions.assumeTrue(
                commandWorks("node", "--version") || required(),
                "node is not installed (set " + REQUIRE_ENV + "=1 to fail instead)");
        installHarness();
        ServerSettings settings = settings(dataDir);
        Map<String, String> extra = extraTargets();
        Path report = scratch.resolve("report.json");
        Path log = scratch.resolve("harness.log");
        try (ServerFixture cairn = new ServerFixture(settings)) {
            ProcessBuilder node =
                    new ProcessBuilder("node", "harness.mjs")
                            .directory(HARNESS.toFile())
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile());
            Map<String, String> env = node.environment();
            env.remove("CAIRN_DB_URL");
            env.put("CAIRN_URL", "http://localhost:" + cairn.server.port());
            env.put("CAIRN_ADMIN_TOKEN", CairnCalls.ADMIN);
            env.put("CAIRN_COMMAND", Json.MAPPER.writeValueAsString(cairnCommand()));
            env.put("CAIRN_REPORT", report.toString());
            env.putAll(extra);
            Process harness = node.start();
            boolean ended = harness.waitFor(15, TimeUnit.MINUTES);
            if (!ended) {
                harness.destroyForcibly();
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(ended).as("the harness ended in time; output:\n" + output).isTrue();
            assertThat(Files.exists(report)).as(output).isTrue();
            JsonNode result = Json.MAPPER.readTree(report.toFile());
            assertThat(result.path("failed")).as(output).isEmpty();
            assertThat(harness.exitValue()).as(output).isZero();
            assertThat(result.path("ok").asBoolean()).isTrue();
            List<String> targets = new ArrayList<>();
            result.path("targets").fieldNames().forEachRemaining(targets::add);
            assertThat(targets).containsExactly(extra.get("CAIRN_TARGETS").split(","));
            for (String target : targets) {
                // Every target ran the whole session, not an early failure.
                assertThat(result.path("targets").path(target).path("checks").size())
                        .as(target)
                        .isGreaterThan(100);
            }
            if (!"0".equals(extra.get("CAIRN_INSPECTOR"))) {
                assertThat(result.path("inspector").path("checks").size()).isEqualTo(4);
            }
        }
    }

    /** The cairn command line in a child JVM, on this test's class path. */
    static List<String> cairnCommand() {
        String java = ProcessHandle.current().info().command().orElse("java");
        return List.of(
                java,
                "-Dai.djl.offline=true",
                "--enable-native-access=ALL-UNNAMED",
                // as the launcher runs `cairn mcp`
                "--add-modules=jdk.incubator.vector",
                "-cp",
                System.getProperty("java.class.path"),
                "dev.cairn.server.cli.Main");
    }

    /** {@code npm ci} once: the lock file pins the SDK and the inspector. */
    static void installHarness() throws Exception {
        if (Files.exists(HARNESS.resolve("node_modules/.package-lock.json"))
                && Files.exists(HARNESS.resolve("node_modules/@modelcontextprotocol/sdk"))) {
            return;
        }
        Process npm =
                new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
                        .directory(HARNESS.toFile())
                        .redirectErrorStream(true)
                        .start();
        String output = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(npm.waitFor(10, TimeUnit.MINUTES)).as("npm ci ended").isTrue();
        assertThat(npm.exitValue()).as("npm ci:\n" + output).isZero();
    }

    static boolean required() {
        String value = System.getenv(REQUIRE_ENV);
        return "1".equals(value) || "true".equalsIgnoreCase(value);
    }

    static boolean commandWorks(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
