package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.server.http.Json;
import dev.cairn.server.mcp.CairnMcp;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn mcp --data DIR} as a child process, spoken to by the MCP SDK's stdio client: the
 * same tools as over HTTP, and nothing on stdout but JSON-RPC (a tee keeps a copy of it).
 */
class McpStdioTest {

    @TempDir Path dataDir;
    @TempDir Path scratch;

    @Test
    void servesTheToolsOverStdioWithOnlyJsonRpcOnStdout() throws Exception {
        try (ServerFixture cairn = new ServerFixture(dataDir)) {
            cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"ops\"}");
            var doc =
                    cairn.call(
                            "POST",
                            "/v1/namespaces/ops/documents",
                            CairnCalls.ADMIN,
                            "{\"id\":\"kafka\",\"title\":\"Kafka runbook\",\"content\":\"# Kafka"
                                    + " lag\\n\\nWhen consumer lag grows at night, raise"
                                    + " fetch.min.bytes.\"}");
            assertThat(doc.status()).isEqualTo(201);
        }
        Path stdout = scratch.resolve("stdout.jsonl");
        String java = ProcessHandle.current().info().command().orElse("java");
        // The client reads the child's stdout through tee, which keeps a copy to check.
        String command =
                "unset CAIRN_DB_URL; exec '"
                        + java
                        + "' -cp '"
                        + System.getProperty("java.class.path")
                        + "' dev.cairn.server.cli.Main mcp --namespace ops --data '"
                        + dataDir
                        + "' | tee '"
                        + stdout
                        + "'";
        var transport =
                new StdioClientTransport(
                        ServerParameters.builder("sh").args("-c", command).build(),
                        CairnMcp.jsonMapper());
        // The child loads the embedding model before it answers initialize: give it time.
        try (McpSyncClient client =
                McpClient.sync(transport)
                        .requestTimeout(Duration.ofSeconds(120))
                        .initializationTimeout(Duration.ofSeconds(300))
                        .build()) {
            McpSchema.InitializeResult init = client.initialize();
            assertThat(init.serverInfo().name()).isEqualTo("cairn");
            List<McpSchema.Tool> tools = client.listTools().tools();
            assertThat(tools)
                    .extracting(McpSchema.Tool::name)
                    .contains("retrieve", "recall", "remember", "forget", "get_entity");
            var result =
                    client.callTool(
                            new McpSchema.CallToolRequest(
                                    "retrieve", Map.of("query", "consumer lag at night")));
            assertThat(result.isError()).isFalse();
            assertThat(((McpSchema.TextContent) result.content().getFirst()).text())
                    .contains("kafka", "fetch.min.bytes");
            assertThat(client.listResourceTemplates().resourceTemplates()).hasSize(2);
        }
        // The server ends when its stdin closes; the data dir is deleted after this test, so
        // wait for it (the shell around it may be gone already, the JVM not yet).
        for (ProcessHandle child :
                ProcessHandle.current()
                        .descendants()
                        .filter(p -> p.info().commandLine().orElse("").contains(dataDir.toString()))
                        .toList()) {
            child.onExit().get(60, TimeUnit.SECONDS);
        }
        List<String> lines = Files.readAllLines(stdout);
        assertThat(lines).hasSizeGreaterThanOrEqualTo(4);
        for (String line : lines) {
            JsonNode message = Json.MAPPER.readTree(line);
            assertThat(message.path("jsonrpc").asText()).as(line).isEqualTo("2.0");
        }
    }
}
