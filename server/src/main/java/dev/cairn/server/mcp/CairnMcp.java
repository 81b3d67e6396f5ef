package dev.cairn.server.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.cairn.server.api.NamespaceRoutes;
import dev.cairn.server.api.ToolRoutes;
import dev.cairn.server.auth.Principal;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.HttpProblem;
import dev.cairn.server.http.Json;
import dev.cairn.store.Store;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Cairn's MCP server: the tools, resources and prompt over the same services and handlers as the
 * HTTP API ({@link ToolRoutes}), whatever the transport. Every tool checks the caller's role on the
 * namespace the way the REST routes do, and reports any failure as a tool error with a readable
 * message, so a model sees what went wrong instead of a protocol error.
 */
public final class CairnMcp {

    /** Transport-context key of the namespace the session talks to. */
    public static final String NAMESPACE = "cairn.namespace";

    /** Transport-context key of the authenticated {@link Principal}. */
    public static final String PRINCIPAL = "cairn.principal";

    private static final System.Logger LOG = System.getLogger(CairnMcp.class.getName());

    /**
     * The MCP names of the tools that {@link ToolRoutes} already defines, and their names there.
     */
    private static final Map<String, String> SHARED_TOOLS = sharedTools();

    private final ToolRoutes tools;
    private final Store store;

    public CairnMcp(ToolRoutes tools, Store store) {
        this.tools = tools;
        this.store = store;
    }

    private static Map<String, String> sharedTools() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("retrieve", "retrieve");
        m.put("recall", "recall_memory");
        m.put("remember", "remember");
        m.put("propose_memory", "propose_memory");
        m.put("search_transcripts", "search_transcript");
        return m;
    }

    /** The JSON mapper of the MCP messages: Cairn's own, so views serialise as over REST. */
    public static McpJsonMapper jsonMapper() {
        return new JacksonMcpJsonMapper(Json.MAPPER);
    }

    /** Builds the MCP server over a streamable transport (HTTP). */
    public McpSyncServer serve(McpStreamableServerTransportProvider transport) {
        return McpServer.sync(transport)
                .serverInfo("cairn", "0.1.0")
                .jsonMapper(jsonMapper())
                .instructions(INSTRUCTIONS)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).logging().build())
                .tools(toolSpecifications())
                .build();
    }

    static final String INSTRUCTIONS =
            "Cairn is a knowledge base and long-term memory for this namespace. Use retrieve to"
                    + " ground answers in documents, recall to bring back what is known about the"
                    + " user or task, and remember or propose_memory to keep something for later.";

    /** One MCP tool per shared {@link ToolRoutes} tool, running its handler. */
    List<SyncToolSpecification> toolSpecifications() {
        List<SyncToolSpecification> specs = new ArrayList<>();
        SHARED_TOOLS.forEach(
                (mcpName, restName) -> {
                    ToolRoutes.Tool tool =
                            tools.tool(restName)
                                    .orElseThrow(
                                            () -> new IllegalStateException("no tool " + restName));
                    specs.add(
                            spec(
                                    mcpName,
                                    tool.description(),
                                    tool.parameters(),
                                    tool.role(),
                                    tool.handler()));
                });
        return specs;
    }

    private SyncToolSpecification spec(
            String name,
            String description,
            Map<String, Object> schema,
            Role role,
            ToolRoutes.Handler handler) {
        McpSchema.Tool tool =
                McpSchema.Tool.builder()
                        .name(name)
                        .description(description)
                        .inputSchema(schema)
                        .annotations(
                                new McpSchema.ToolAnnotations(
                                        null,
                                        role == Role.READ,
                                        false,
                                        role == Role.READ,
                                        false,
                                        null))
                        .build();
        return SyncToolSpecification.builder()
                .tool(tool)
                .callHandler((exchange, request) -> call(exchange, request, role, handler))
                .build();
    }

    private McpSchema.CallToolResult call(
            McpSyncServerExchange exchange,
            McpSchema.CallToolRequest request,
            Role role,
            ToolRoutes.Handler handler) {
        try {
            McpTransportContext context = exchange.transportContext();
            String ns = (String) context.get(NAMESPACE);
            Principal principal = (Principal) context.get(PRINCIPAL);
            if (ns == null || principal == null) {
                throw new IllegalStateException("the MCP session has no namespace or caller");
            }
            NamespaceRoutes.require(principal, store, ns, role);
            Map<String, Object> arguments =
                    request.arguments() == null ? Map.of() : request.arguments();
            Object result = handler.run(ns, Json.MAPPER.valueToTree(arguments));
            return success(result);
        } catch (HttpProblem
                | IllegalArgumentException
                | NoSuchElementException
                | IllegalStateException
                | dev.cairn.safety.WriteBlockedException e) {
            return failure(e.getMessage());
        } catch (RuntimeException e) {
            // Like the REST API's 500: the details go to the log, the model gets an incident id.
            String incident = Long.toHexString(System.nanoTime());
            LOG.log(System.Logger.Level.ERROR, "MCP tool incident " + incident, e);
            return failure("internal error, incident " + incident);
        }
    }

    /** The structured result and, for clients without structured content, its JSON as text. */
    static McpSchema.CallToolResult success(Object result) {
        @SuppressWarnings("unchecked")
        Map<String, Object> structured = Json.MAPPER.convertValue(result, Map.class);
        String text;
        try {
            text = Json.MAPPER.writeValueAsString(result);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a tool result", e);
        }
        return McpSchema.CallToolResult.builder()
                .structuredContent(structured)
                .addTextContent(text)
                .isError(false)
                .build();
    }

    static McpSchema.CallToolResult failure(String message) {
        return McpSchema.CallToolResult.builder()
                .addTextContent(message == null || message.isBlank() ? "tool failed" : message)
                .isError(true)
                .build();
    }
}
