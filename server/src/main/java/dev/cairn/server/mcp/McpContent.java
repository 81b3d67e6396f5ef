package dev.cairn.server.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.cairn.api.body.RecallBody;
import dev.cairn.api.body.RetrieveBody;
import dev.cairn.api.view.RecallAnswer;
import dev.cairn.embeddings.TokenCounter;
import dev.cairn.memory.service.RecallRequest;
import dev.cairn.retrieval.RetrieveResult;
import dev.cairn.retrieval.RetrievedHit;
import dev.cairn.server.ServerComponents;
import dev.cairn.server.api.LibraryRequests;
import dev.cairn.server.api.ServiceMemoryPort;
import dev.cairn.server.api.view.KnowledgeViews;
import dev.cairn.server.api.view.MemoryViews;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.HttpProblem;
import dev.cairn.server.http.Json;
import dev.cairn.store.Store;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The MCP resources (a memory, a document with its chunks) and the {@code grounded_answer} prompt.
 * Resources answer the same records as {@code GET memories/{id}} and {@code GET documents/{id}};
 * the prompt runs retrieve and recall through the same services as the tools. Unlike tools, the
 * protocol has no "error result" for these, so failures are JSON-RPC errors with a readable
 * message.
 */
final class McpContent {

    static final String MEMORY_TEMPLATE = "cairn://{ns}/memories/{id}";
    static final String DOCUMENT_TEMPLATE = "cairn://{ns}/documents/{id}";
    static final String PROMPT = "grounded_answer";

    /** Passages asked of retrieve; the budget decides how many make it into the context. */
    private static final int PASSAGES = 8;

    private static final Pattern URI = Pattern.compile("cairn://([^/]+)/(memories|documents)/(.+)");

    private static final String INSTRUCTION =
            "Answer the question using only the context below. Cite the documents you use by"
                    + " their id in brackets; say so when the context does not answer it.";

    private final CairnMcp mcp;
    private final ServerComponents components;
    private final Store store;

    McpContent(CairnMcp mcp, ServerComponents components) {
        this.mcp = mcp;
        this.components = components;
        this.store = components.store();
    }

    List<SyncResourceTemplateSpecification> resourceTemplates() {
        return List.of(
                template(
                        MEMORY_TEMPLATE,
                        "memory",
                        "A durable memory with its status history, as GET memories/{id}.",
                        (ns, id) ->
                                MemoryViews.detail(
                                        components.memory().get(ns, id),
                                        components.memory().history(ns, id))),
                template(
                        DOCUMENT_TEMPLATE,
                        "document",
                        "A document with its content and chunks, as GET documents/{id}.",
                        (ns, id) ->
                                KnowledgeViews.detail(
                                        components
                                                .knowledge()
                                                .documents()
                                                .document(ns, id)
                                                .orElseThrow(
                                                        () ->
                                                                new NoSuchElementException(
                                                                        "document '"
                                                                                + id
                                                                                + "' does not exist")),
                                        components.knowledge().documents().chunks(ns, id))));
    }

    private SyncResourceTemplateSpecification template(
            String uriTemplate,
            String name,
            String description,
            BiFunction<String, String, Object> reader) {
        var template =
                new McpSchema.ResourceTemplate(
                        uriTemplate, name, null, description, "application/json", null);
        return new SyncResourceTemplateSpecification(
                template, (exchange, request) -> read(exchange, request.uri(), reader));
    }

    private McpSchema.ReadResourceResult read(
            McpSyncServerExchange exchange, String uri, BiFunction<String, String, Object> reader) {
        Object record =
                guarded(
                        () -> {
                            CairnMcp.Caller caller = mcp.caller(exchange, Role.READ);
                            Matcher m = URI.matcher(uri);
                            if (!m.matches()) {
                                throw new IllegalArgumentException("not a Cairn resource: " + uri);
                            }
                            // A session is bound to one namespace: its grants were checked for
                            // that one only, so another namespace's resource is refused.
                            if (!m.group(1).equals(caller.namespace())) {
                                throw new IllegalArgumentException(
                                        "resource "
                                                + uri
                                                + " is outside this session's namespace '"
                                                + caller.namespace()
                                                + "'");
                            }
                            return reader.apply(caller.namespace(), m.group(3));
                        });
        return new McpSchema.ReadResourceResult(
                List.of(new McpSchema.TextResourceContents(uri, "application/json", json(record))));
    }

    List<SyncPromptSpecification> prompts() {
        var prompt =
                new McpSchema.Prompt(
                        PROMPT,
                        "Grounded answer",
                        "A question with the namespace's best passages and the relevant memories,"
                                + " assembled within a token budget.",
                        List.of(
                                new McpSchema.PromptArgument(
                                        "question", "The question to answer.", true),
                                new McpSchema.PromptArgument(
                                        "userId", "Recall this user's memories too.", false),
                                new McpSchema.PromptArgument(
                                        "scope",
                                        "'namespace' to recall every user's memories without a"
                                                + " userId (a namespace whose recallScope is"
                                                + " 'user' needs one of the two).",
                                        false),
                                new McpSchema.PromptArgument(
                                        "maxTokens",
                                        "Budget of the context in model tokens (default 3500).",
                                        false)));
        return List.of(
                new SyncPromptSpecification(
                        prompt,
                        (exchange, request) ->
                                guarded(() -> grounded(exchange, request.arguments()))));
    }

    private McpSchema.GetPromptResult grounded(
            McpSyncServerExchange exchange, Map<String, Object> arguments) {
        CairnMcp.Caller caller = mcp.caller(exchange, Role.READ);
        Map<String, Object> args = arguments == null ? Map.of() : arguments;
        String question = string(args.get("question"));
        if (question.isBlank()) {
            throw new IllegalArgumentException("question is required");
        }
        int budget = budget(args.get("maxTokens"));
        String ns = caller.namespace();
        TokenCounter counter = components.cairn().model().tokenCounter();
        // Memories get half the budget, assembled and counted by recall itself; documents fill
        // what is left, counted with the same model tokenizer.
        RecallAnswer recalled =
                new ServiceMemoryPort(components.memory())
                        .recall(
                                ns,
                                new RecallBody(
                                        question,
                                        string(args.get("userId")),
                                        null,
                                        null,
                                        null,
                                        budget / 2,
                                        null,
                                        null,
                                        null,
                                        null,
                                        string(args.get("scope"))));
        RetrieveResult retrieved =
                components
                        .knowledge()
                        .retrieve(
                                ns, LibraryRequests.retrieve(RetrieveBody.of(question, PASSAGES)));
        String header = INSTRUCTION + "\n\nQuestion: " + question + "\n\n";
        int left = budget - recalled.tokens() - counter.count(header);
        StringBuilder documents = new StringBuilder();
        for (RetrievedHit hit : retrieved.hits()) {
            String passage = passage(hit);
            int tokens = counter.count(passage);
            if (tokens > left) {
                if (left > 32) {
                    documents.append(counter.truncate(passage, left)).append("\n\n");
                }
                break;
            }
            documents.append(passage).append("\n\n");
            left -= tokens;
        }
        StringBuilder text = new StringBuilder(header);
        text.append("## Documents\n\n")
                .append(documents.isEmpty() ? "(no passage found)\n\n" : documents);
        text.append("## Memories\n\n")
                .append(recalled.context().isBlank() ? "(no memory found)" : recalled.context());
        return new McpSchema.GetPromptResult(
                "Grounded context for: " + question,
                List.of(
                        new McpSchema.PromptMessage(
                                McpSchema.Role.USER,
                                new McpSchema.TextContent(text.toString().strip()))));
    }

    private static String passage(RetrievedHit hit) {
        String heading =
                hit.heading() == null || hit.heading().isBlank() ? "" : " — " + hit.heading();
        return "[" + hit.documentId() + "] " + hit.title() + heading + "\n" + hit.text().strip();
    }

    private static int budget(Object value) {
        if (value == null || string(value).isBlank()) {
            return RecallRequest.DEFAULT_MAX_TOKENS;
        }
        try {
            int budget = Integer.parseInt(string(value).strip());
            if (budget < 64 || budget > 100_000) {
                throw new IllegalArgumentException("maxTokens must be between 64 and 100000");
            }
            return budget;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("maxTokens must be a number, got '" + value + "'");
        }
    }

    private static String string(Object value) {
        return value == null ? "" : value.toString();
    }

    private static String json(Object record) {
        try {
            return Json.MAPPER.writeValueAsString(record);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a resource", e);
        }
    }

    /**
     * Runs {@code body}, turning Cairn's failures into JSON-RPC errors: an unknown record is the
     * protocol's "resource not found", a refused or malformed request is "invalid params".
     */
    private static <T> T guarded(java.util.function.Supplier<T> body) {
        try {
            return body.get();
        } catch (NoSuchElementException e) {
            throw McpError.builder(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND)
                    .message(e.getMessage())
                    .build();
        } catch (HttpProblem | IllegalArgumentException | IllegalStateException e) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS)
                    .message(e.getMessage())
                    .build();
        }
    }
}
