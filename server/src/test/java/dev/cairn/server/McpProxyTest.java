package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cairn mcp --server URL --token T} as a child process: it forwards the MCP SDK's stdio
 * client to a running server's {@code /mcp/{ns}}, so the tools run there with the token's roles and
 * the session id and protocol version carried across requests; stdout stays JSON-RPC only.
 */
class McpProxyTest {

    @TempDir static Path dataDir;
    @TempDir Path scratch;
    static ServerFixture cairn;
    static String reader;

    @BeforeAll
    static void start() {
        cairn = new ServerFixture(dataDir);
        cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"ops\"}");
        var doc =
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/documents",
                        CairnCalls.ADMIN,
                        "{\"id\":\"kafka\",\"title\":\"Kafka runbook\",\"content\":\"# Kafka lag\\n\\n"
                                + "When consumer lag grows at night, raise fetch.min.bytes.\"}");
        assertThat(doc.status()).isEqualTo(201);
        reader =
                cairn.call(
                                "POST",
                                "/v1/tokens",
                                CairnCalls.ADMIN,
                                "{\"name\":\"reader\",\"roles\":[\"read\"],\"namespaces\":[\"ops\"]}")
                        .json()
                        .path("token")
                        .asText();
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    McpSyncClient forwarding(String token, Path stdoutCopy) {
        String java = ProcessHandle.current().info().command().orElse("java");
        String command =
                "exec '"
                        + java
                        + "' -cp '"
                        + System.getProperty("java.class.path")
                        + "' dev.cairn.server.cli.Main mcp --namespace ops --server localhost:"
                        + cairn.server.port()
                        + " --token '"
                        + token
                        + "' | tee '"
                        + stdoutCopy
                        + "'";
        var transport =
                new StdioClientTransport(
                        ServerParameters.builder("sh").args("-c", command).build(),
                        CairnMcp.jsonMapper());
        return McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60))
                .build();
    }

    @Test
    void forwardsEveryMessageWithTheTokensRoles() throws Exception {
        Path stdout = scratch.resolve("stdout.jsonl");
        try (McpSyncClient client = forwarding(reader, stdout)) {
            assertThat(client.initialize().serverInfo().name()).isEqualTo("cairn");
            List<McpSchema.Tool> tools = client.listTools().tools();
            assertThat(tools).hasSize(12);
            var found =
                    client.callTool(
                            new McpSchema.CallToolRequest(
                                    "retrieve", Map.of("query", "consumer lag at night")));
            assertThat(found.isError()).isFalse();
            assertThat(((McpSchema.TextContent) found.content().getFirst()).text())
                    .contains("fetch.min.bytes");
            var refused =
                    client.callTool(
                            new McpSchema.CallToolRequest("remember", Map.of("content", "x")));
            assertThat(refused.isError()).isTrue();
            assertThat(((McpSchema.TextContent) refused.content().getFirst()).text())
                    .contains("lacks role 'write' on namespace 'ops'");
            var document =
                    client.readResource(
                            new McpSchema.ReadResourceRequest("cairn://ops/documents/kafka"));
            assertThat(((McpSchema.TextResourceContents) document.contents().getFirst()).text())
                    .contains("Kafka runbook");
        }
        List<String> lines = Files.readAllLines(stdout);
        assertThat(lines).hasSizeGreaterThanOrEqualTo(5);
        for (String line : lines) {
            JsonNode message = Json.MAPPER.readTree(line);
            assertThat(message.path("jsonrpc").asText()).as(line).isEqualTo("2.0");
        }
    }

    @Test
    void aBadTokenIsAnErrorAnswerNotASilentHang() {
        try (McpSyncClient client = forwarding("not-a-token", scratch.resolve("out.jsonl"))) {
            assertThatThrownBy(client::initialize).hasStackTraceContaining("server answered 401");
        }
    }
}
