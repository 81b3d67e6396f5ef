package dev.cairn.server.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.server.ServerComponents;
import dev.cairn.server.api.NamespaceRoutes;
import dev.cairn.server.api.ToolRoutes;
import dev.cairn.server.auth.ApiToken;
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
import io.modelcontextprotocol.spec.McpServerTransportProvider;
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

    /** Runs a tool for a caller (the token's name, the actor of writes) in a namespace. */
    @FunctionalInterface
    interface Handler {
        Object run(String namespace, String caller, ObjectNode arguments);
    }

    /** One MCP tool: definition, the role it needs on the namespace, and its handler. */
    record McpTool(
            String name,
            String description,
            Map<String, Object> schema,
            Role role,
            Handler handler) {}

    private final ToolRoutes tools;
    private final ServerComponents components;
    private final Store store;
    private final McpContent content;
    private volatile Caller local;

    public CairnMcp(ToolRoutes tools, ServerComponents components) {
        this.tools = tools;
        this.components = components;
        this.store = components.store();
        this.content = new McpContent(this, components);
    }

    private static Map<String, String> sharedTools() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("retrieve", "retrieve");
        m.put("recall", "recall_memory");
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
        return configure(McpServer.sync(transport));
    }

    /**
     * Builds the MCP server over a single-session transport (stdio), whose one caller is fixed by
     * whoever started the process: there is no request to carry a token or a path.
     */
    public McpSyncServer serveLocal(
            McpServerTransportProvider transport, String namespace, ApiToken token) {
        this.local = new Caller(namespace, new Principal(token));
        return configure(McpServer.sync(transport));
    }

    private <S extends McpServer.SyncSpecification<S>> McpSyncServer configure(S spec) {
        return spec.serverInfo("cairn", "0.1.0")
                .jsonMapper(jsonMapper())
                .instructions(INSTRUCTIONS)
                .capabilities(
                        McpSchema.ServerCapabilities.builder()
                                .tools(false)
                                .resources(false, false)
                                .prompts(false)
                                .logging()
                                .build())
                .tools(toolSpecifications())
                .resourceTemplates(content.resourceTemplates())
                .prompts(content.prompts())
                .build();
    }

    static final String INSTRUCTIONS =
            "Cairn is a knowledge base and long-term memory for this namespace. Use retrieve to"
                    + " ground answers in documents, recall to bring back what is known about the"
                    + " user or task, and remember or propose_memory to keep something for later.";

    /** Every MCP tool: the shared {@link ToolRoutes} ones, then the service-backed ones. */
    List<McpTool> tools() {
        List<McpTool> all = new ArrayList<>();
        SHARED_TOOLS.forEach(
                (mcpName, restName) -> {
                    ToolRoutes.Tool tool =
                            tools.tool(restName)
                                    .orElseThrow(
                                            () -> new IllegalStateException("no tool " + restName));
                    all.add(
                            new McpTool(
                                    mcpName,
                                    tool.description(),
                                    tool.parameters(),
                                    tool.role(),
                                    (ns, caller, a) -> tool.handler().run(ns, a)));
                });
        all.addAll(
                ServiceTools.all(
                        components.memory(),
                        components.knowledge(),
                        components.cairn().graph(),
                        components.judge()));
        return all;
    }

    List<SyncToolSpecification> toolSpecifications() {
        return tools().stream().map(this::spec).toList();
    }

    private SyncToolSpecification spec(McpTool mcpTool) {
        Role role = mcpTool.role();
        Handler handler = mcpTool.handler();
        McpSchema.Tool tool =
                McpSchema.Tool.builder()
                        .name(mcpTool.name())
                        .description(mcpTool.description())
                        .inputSchema(mcpTool.schema())
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
            Handler handler) {
        try {
            Caller caller = caller(exchange, role);
            Map<String, Object> arguments =
                    request.arguments() == null ? Map.of() : request.arguments();
            Object result =
                    handler.run(
                            caller.namespace(),
                            caller.principal().token().name(),
                            Json.MAPPER.valueToTree(arguments));
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

    /** The namespace of a session and the principal that opened it. */
    record Caller(String namespace, Principal principal) {}

    /**
     * The session's namespace and caller, once the caller is known to hold {@code role} on an
     * existing namespace (the REST routes' check).
     */
    Caller caller(McpSyncServerExchange exchange, Role role) {
        McpTransportContext context = exchange.transportContext();
        String ns = (String) context.get(NAMESPACE);
        Principal principal = (Principal) context.get(PRINCIPAL);
        if (ns == null && principal == null && local != null) {
            ns = local.namespace();
            principal = local.principal();
        }
        if (ns == null || principal == null) {
            throw new IllegalStateException("the MCP session has no namespace or caller");
        }
        NamespaceRoutes.require(principal, store, ns, role);
        return new Caller(ns, principal);
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
