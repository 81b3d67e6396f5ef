package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP endpoint over real streamable HTTP, driven by the MCP SDK's own client: initialize,
 * tools/list, tools/call, with the REST API's tokens, roles and namespaces.
 */
class McpHttpTest {

    @TempDir static Path dataDir;
    static ServerFixture cairn;
    static String reader;
    static final String A = CairnCalls.ADMIN;

    @BeforeAll
    static void start() {
        cairn = new ServerFixture(dataDir);
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"ops\",\"recallScope\":\"namespace\"}");
        cairn.call("POST", "/v1/namespaces", A, "{\"name\":\"other\"}");
        var doc =
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/documents",
                        A,
                        "{\"id\":\"kafka\",\"title\":\"Kafka runbook\",\"content\":\"# Kafka lag\\n\\n"
                                + "When consumer lag grows at night, the batch export saturates the"
                                + " brokers; raise fetch.min.bytes.\"}");
        assertThat(doc.status()).isEqualTo(201);
        reader =
                cairn.call(
                                "POST",
                                "/v1/tokens",
                                A,
                                "{\"name\":\"reader\",\"roles\":[\"read\"],\"namespaces\":[\"ops\"]}")
                        .json()
                        .path("token")
                        .asText();
    }

    @AfterAll
    static void stop() {
        cairn.close();
    }

    static McpSyncClient client(String ns, String token) {
        var transport =
                HttpClientStreamableHttpTransport.builder("http://localhost:" + cairn.server.port())
                        .endpoint("/mcp/" + ns)
                        .httpRequestCustomizer(
                                (b, method, uri, body, context) ->
                                        b.header("Authorization", "Bearer " + token))
                        .build();
        McpSyncClient client =
                McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
        return client;
    }

    static McpSchema.CallToolResult call(
            McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().getFirst()).text();
    }

    @Test
    void listsTheToolsWithTheirSchemas() {
        try (McpSyncClient client = client("ops", A)) {
            assertThat(client.getServerInfo().name()).isEqualTo("cairn");
            List<McpSchema.Tool> tools = client.listTools().tools();
            assertThat(tools)
                    .extracting(McpSchema.Tool::name)
                    .contains("retrieve", "recall", "remember", "propose_memory");
            McpSchema.Tool retrieve =
                    tools.stream()
                            .filter(t -> t.name().equals("retrieve"))
                            .findFirst()
                            .orElseThrow();
            assertThat(retrieve.inputSchema().get("required")).isEqualTo(List.of("query"));
            assertThat(retrieve.annotations().readOnlyHint()).isTrue();
        }
    }

    @Test
    void retrieveAnswersStructuredPassagesAndText() {
        try (McpSyncClient client = client("ops", reader)) {
            var result = call(client, "retrieve", Map.of("query", "consumer lag at night"));
            assertThat(result.isError()).isFalse();
            @SuppressWarnings("unchecked")
            Map<String, Object> structured = (Map<String, Object>) result.structuredContent();
            assertThat(structured).containsKey("hits");
            assertThat(text(result)).contains("kafka");
        }
    }

    @Test
    void rememberThenRecallGoThroughTheSameServices() {
        try (McpSyncClient client = client("ops", A)) {
            var filed =
                    call(
                            client,
                            "remember",
                            Map.of("content", "The on-call rotation changes on Mondays."));
            assertThat(filed.isError()).as(text(filed)).isFalse();
            assertThat(text(filed)).contains("on-call rotation");
            var recalled = call(client, "recall", Map.of("query", "on-call rotation"));
            assertThat(recalled.isError()).as(text(recalled)).isFalse();
            assertThat(recalled.structuredContent()).asString().contains("context");
        }
    }

    @Test
    void aMissingRoleIsAToolError() {
        try (McpSyncClient client = client("ops", reader)) {
            var result = call(client, "remember", Map.of("content", "x"));
            assertThat(result.isError()).isTrue();
            assertThat(text(result)).contains("lacks role 'write' on namespace 'ops'");
        }
        try (McpSyncClient client = client("other", reader)) {
            var result = call(client, "retrieve", Map.of("query", "x"));
            assertThat(result.isError()).isTrue();
            assertThat(text(result)).contains("lacks role 'read' on namespace 'other'");
        }
    }

    @Test
    void anUnknownNamespaceOrBadArgumentIsAToolError() {
        try (McpSyncClient client = client("nowhere", A)) {
            var result = call(client, "retrieve", Map.of("query", "x"));
            assertThat(result.isError()).isTrue();
            assertThat(text(result)).contains("namespace 'nowhere' does not exist");
        }
        try (McpSyncClient client = client("ops", A)) {
            var result = call(client, "retrieve", Map.of("query", "x", "topK", "many"));
            assertThat(result.isError()).isTrue();
            assertThat(text(result)).contains("topK");
        }
    }

    /** POSTs {@code body} to /mcp/ops as it is, with a bearer token unless it is null. */
    static HttpResponse<String> postRaw(String body, String token) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(
                                URI.create("http://localhost:" + cairn.server.port() + "/mcp/ops"))
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HttpClient.newHttpClient()
                .send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void withoutATokenTheEndpointAnswers401() throws Exception {
        HttpResponse<String> response = postRaw("{}", null);
        assertThat(response.statusCode()).isEqualTo(401);
        assertThatThrownBy(() -> client("ops", "not-a-token")).isInstanceOf(RuntimeException.class);
    }

    @Test
    void malformedJsonRpcIsRefusedInCairnsWordsNotTheSdks() throws Exception {
        Map<String, String> detailOf =
                Map.of(
                        "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"tools/list\"}",
                        "the message's \"id\" must be a string or an integer, not null",
                        "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"tools/list\"}",
                        "the message's \"id\" must be a string or an integer, not number",
                        "{\"id\":1,\"method\":\"tools/list\"}",
                        "a JSON-RPC message needs \"jsonrpc\": \"2.0\"",
                        "{\"jsonrpc\":\"2.0\",\"id\":1}",
                        "a JSON-RPC response has either a \"result\" or an \"error\"",
                        "{\"jsonrpc\":\"2.0\",\"method\":7}",
                        "the message's \"method\" must be a non-empty string",
                        "{\"jsonrpc\":\"2.0\",",
                        "malformed JSON at line 1, column ",
                        // a valid request without a session: the error envelope itself used to
                        // fail in the SDK, answering its "null IDs are not allowed"
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
                        "missing Mcp-Session-Id header");
        for (Map.Entry<String, String> c : detailOf.entrySet()) {
            HttpResponse<String> response = postRaw(c.getKey(), A);
            assertThat(response.statusCode()).as(c.getKey()).isEqualTo(400);
            assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
            var error =
                    new CairnCalls.Response(400, "application/json", response.body())
                            .json()
                            .path("error");
            assertThat(error.path("message").asText()).as(response.body()).startsWith(c.getValue());
            assertThat(error.path("message").asText()).doesNotContain("IDs are not allowed");
        }
    }

    @Test
    void ingestThenRetrieveThenTraceAndJudge() {
        try (McpSyncClient client = client("ops", A)) {
            var ingested =
                    call(
                            client,
                            "ingest_document",
                            Map.of(
                                    "content",
                                    "---\nid: dns\ntitle: DNS runbook\n---\n# DNS\n\n"
                                            + "Flush the resolver cache when records are stale."));
            assertThat(ingested.isError()).as(text(ingested)).isFalse();
            assertThat(ingested.structuredContent()).asString().contains("dns");
            var found = call(client, "retrieve", Map.of("query", "stale DNS records"));
            @SuppressWarnings("unchecked")
            String traceId =
                    (String) ((Map<String, Object>) found.structuredContent()).get("traceId");
            var trace = call(client, "get_trace", Map.of("traceId", traceId));
            assertThat(trace.isError()).as(text(trace)).isFalse();
            var judged =
                    call(
                            client,
                            "judge_answer",
                            Map.of(
                                    "query", "stale DNS records",
                                    "answer", "Flush the resolver cache.",
                                    "traceId", traceId));
            assertThat(judged.isError()).as(text(judged)).isFalse();
            var missing = call(client, "get_trace", Map.of("traceId", "no-such-trace"));
            assertThat(missing.isError()).isTrue();
            assertThat(text(missing)).contains("trace 'no-such-trace' does not exist");
            var entities = call(client, "find_entities", Map.of("query", ""));
            assertThat(entities.isError()).as(text(entities)).isFalse();
            var entity = call(client, "get_entity", Map.of("id", "nobody"));
            assertThat(entity.isError()).isTrue();
        }
    }

    @Test
    void updateAndForgetAMemory() {
        String id =
                cairn.call(
                                "POST",
                                "/v1/namespaces/ops/memories",
                                A,
                                "{\"type\":\"FACT\",\"content\":\"Deploys freeze on Fridays.\"}")
                        .json()
                        .path("id")
                        .asText();
        try (McpSyncClient client = client("ops", A)) {
            var updated =
                    call(
                            client,
                            "update_memory",
                            Map.of("id", id, "content", "Deploys freeze on Thursdays."));
            assertThat(updated.isError()).as(text(updated)).isFalse();
            var bad = call(client, "update_memory", Map.of("id", id, "status", "gone"));
            assertThat(bad.isError()).isTrue();
            var forgot = call(client, "forget", Map.of("id", id));
            assertThat(forgot.isError()).as(text(forgot)).isFalse();
            assertThat(text(forgot)).contains("deleted");
            var again = call(client, "forget", Map.of("id", "no-such-memory"));
            assertThat(again.isError()).isTrue();
        }
    }

    @Test
    void resourcesAreTheMemoryAndTheDocumentRecords() {
        String id =
                cairn.call(
                                "POST",
                                "/v1/namespaces/ops/memories",
                                A,
                                "{\"type\":\"FACT\",\"content\":\"The pager is in the blue drawer.\"}")
                        .json()
                        .path("id")
                        .asText();
        try (McpSyncClient client = client("ops", reader)) {
            assertThat(client.listResourceTemplates().resourceTemplates())
                    .extracting(McpSchema.ResourceTemplate::uriTemplate)
                    .containsExactlyInAnyOrder(
                            "cairn://{ns}/memories/{id}", "cairn://{ns}/documents/{id}");
            String memory = resource(client, "cairn://ops/memories/" + id);
            assertThat(memory).contains("\"id\":\"" + id + "\"", "blue drawer", "transitions");
            String document = resource(client, "cairn://ops/documents/kafka");
            assertThat(document).contains("Kafka runbook", "chunks", "fetch.min.bytes");
            assertThatThrownBy(() -> resource(client, "cairn://ops/documents/no-such-doc"))
                    .hasMessageContaining("document 'no-such-doc' does not exist");
            assertThatThrownBy(() -> resource(client, "cairn://ops/memories/no-such-memory"))
                    .isInstanceOf(RuntimeException.class);
            assertThatThrownBy(() -> resource(client, "cairn://other/documents/kafka"))
                    .hasMessageContaining("outside this session's namespace 'ops'");
        }
    }

    static String resource(McpSyncClient client, String uri) {
        var result = client.readResource(new McpSchema.ReadResourceRequest(uri));
        return ((McpSchema.TextResourceContents) result.contents().getFirst()).text();
    }

    @Test
    void theGroundedAnswerPromptAssemblesDocumentsAndMemories() {
        var stored =
                cairn.call(
                        "POST",
                        "/v1/namespaces/ops/memories",
                        A,
                        "{\"type\":\"FACT\",\"content\":\"The nightly batch export of consumer"
                                + " lag reports runs at 02:00.\"}");
        assertThat(stored.status()).isEqualTo(201);
        try (McpSyncClient client = client("ops", A)) {

            assertThat(client.listPrompts().prompts())
                    .extracting(McpSchema.Prompt::name)
                    .containsExactly("grounded_answer");
            var prompt =
                    client.getPrompt(
                            new McpSchema.GetPromptRequest(
                                    "grounded_answer",
                                    Map.of(
                                            "question",
                                            "Why does consumer lag grow at night?",
                                            "maxTokens",
                                            "2000")));
            String context =
                    ((McpSchema.TextContent) prompt.messages().getFirst().content()).text();
            assertThat(context)
                    .contains("Why does consumer lag grow at night?")
                    .contains("[kafka]", "raise fetch.min.bytes")
                    .contains("nightly batch export");
            assertThatThrownBy(
                            () ->
                                    client.getPrompt(
                                            new McpSchema.GetPromptRequest(
                                                    "grounded_answer", Map.of())))
                    .hasMessageContaining("question is required");
        }
    }
}
