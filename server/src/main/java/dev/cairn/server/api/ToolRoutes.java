package dev.cairn.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.agents.conversation.Transcripts;
import dev.cairn.agents.kv.KeyValueEntry;
import dev.cairn.agents.kv.KeyValueMemory;
import dev.cairn.api.body.NewProposalBody;
import dev.cairn.api.body.RecallBody;
import dev.cairn.api.body.RetrieveBody;
import dev.cairn.api.body.TranscriptSearchBody;
import dev.cairn.api.view.ListAnswer;
import dev.cairn.memory.proposal.NewProposal;
import dev.cairn.memory.proposal.ProposalType;
import dev.cairn.memory.proposal.Proposals;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.server.api.body.ToolArguments;
import dev.cairn.server.api.view.KeyValueAnswers;
import dev.cairn.server.api.view.KnowledgeViews;
import dev.cairn.server.api.view.MemoryViews;
import dev.cairn.server.api.view.TranscriptHitView;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.Fields;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Store;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Agent tools: {@code GET /v1/tools} lists their definitions in the shape of function-calling
 * interfaces ({@code {"type": "function", "function": {name, description, parameters}}}, the list
 * in the usual {@code items/total} shape), {@code POST /v1/namespaces/{ns}/tools/{name}} runs one
 * with the body as its arguments and answers with its result. A tool needs the role it declares on
 * the namespace (read tools {@code read}, write tools {@code write}). Names may also be given with
 * {@code _} for {@code .} ({@code memory_read}), as some function-calling APIs forbid dots.
 * Thread-safe.
 */
public final class ToolRoutes implements HttpService {

    /** Runs a tool in a namespace with its arguments. */
    @FunctionalInterface
    public interface Handler {
        Object run(String namespace, ObjectNode arguments);
    }

    /**
     * One tool: its definition and what it needs. Public so the MCP server runs the very same
     * definitions and handlers.
     */
    public record Tool(
            String name,
            String description,
            Map<String, Object> parameters,
            Role role,
            Handler handler) {}

    private final Store store;
    private final long maxBodyBytes;
    private final Map<String, Tool> tools = new LinkedHashMap<>();

    public ToolRoutes(Store store, long maxBodyBytes) {
        this.store = store;
        this.maxBodyBytes = maxBodyBytes;
    }

    /**
     * Every tool, over what the governance module wires: key/value, proposals, transcripts,
     * retrieval and durable memory.
     */
    public static ToolRoutes all(GovernanceModule governance, long maxBodyBytes) {
        return new ToolRoutes(governance.store(), maxBodyBytes)
                .keyValueTools(governance.keyValues())
                .proposalTools(governance.proposals())
                .transcriptTools(governance.transcripts())
                .retrievalTools(governance.knowledge())
                .memoryTools(governance.memory());
    }

    /** Adds a tool; names are unique. */
    ToolRoutes add(Tool tool) {
        if (tools.putIfAbsent(tool.name(), tool) != null) {
            throw new IllegalStateException("duplicate tool " + tool.name());
        }
        return this;
    }

    /** The tool named {@code name} exactly, if any. */
    public Optional<Tool> tool(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/v1/tools", this::list).post("/v1/namespaces/{ns}/tools/{name}", this::run);
        Routes.methodNotAllowed(rules, "/v1/tools", "/v1/namespaces/{ns}/tools/{name}");
    }

    private void list(ServerRequest req, ServerResponse res) {
        dev.cairn.server.auth.AuthFilter.principal(req);
        List<Map<String, Object>> defs = new ArrayList<>();
        for (Tool t : tools.values()) {
            Map<String, Object> function = new LinkedHashMap<>();
            function.put("name", t.name());
            function.put("description", t.description());
            function.put("parameters", t.parameters());
            Map<String, Object> def = new LinkedHashMap<>();
            def.put("type", "function");
            def.put("function", function);
            defs.add(def);
        }
        Json.send(res, 200, ListAnswer.all(defs));
    }

    private void run(ServerRequest req, ServerResponse res) {
        String name = req.path().pathParameters().get("name");
        Tool tool =
                Optional.ofNullable(tools.get(name))
                        .or(
                                () ->
                                        tools.values().stream()
                                                .filter(
                                                        t ->
                                                                t.name()
                                                                        .replace('.', '_')
                                                                        .equals(name))
                                                .findFirst())
                        .orElseThrow(
                                () -> new NoSuchElementException("no tool named '" + name + "'"));
        String ns = NamespaceRoutes.requireNamespace(req, store, tool.role());
        byte[] raw = Json.readBody(req, maxBodyBytes);
        ObjectNode args =
                raw.length == 0 ? Json.MAPPER.createObjectNode() : RequestBodies.parseObject(raw);
        Json.send(res, 200, tool.handler().run(ns, args));
    }

    // ---- schema helpers -----------------------------------------------------------------

    public static Map<String, Object> schema(List<String> required, Object... properties) {
        Map<String, Object> props = new LinkedHashMap<>();
        for (int i = 0; i < properties.length; i += 2) {
            props.put((String) properties[i], properties[i + 1]);
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "object");
        s.put("properties", props);
        s.put("required", required);
        s.put("additionalProperties", false);
        return s;
    }

    public static Map<String, Object> prop(String type, String description) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", type);
        p.put("description", description);
        return p;
    }

    public static Map<String, Object> intProp(String description, int min, int max, int dflt) {
        Map<String, Object> p = prop("integer", description);
        p.put("minimum", min);
        p.put("maximum", max);
        p.put("default", dflt);
        return p;
    }

    public static Map<String, Object> enumProp(String description, List<String> values) {
        Map<String, Object> p = prop("string", description);
        p.put("enum", values);
        return p;
    }

    // ---- the key/value, proposal, transcript and retrieval tools --------------------------

    /** The tools over the key/value memory ({@code memory.*}). */
    ToolRoutes keyValueTools(KeyValueMemory kv) {
        add(
                new Tool(
                        "memory.read",
                        "Read the value stored under a key in the shared key/value memory.",
                        schema(List.of("key"), "key", prop("string", "The key to read.")),
                        Role.READ,
                        (ns, a) -> {
                            String key =
                                    Fields.required(
                                            RequestBodies.bind(a, ToolArguments.MemoryRead.class)
                                                    .key(),
                                            "key");
                            Optional<KeyValueEntry> e = kv.get(ns, key);
                            return new KeyValueAnswers.Found(
                                    e.isPresent(), key, e.map(KeyValueEntry::value).orElse(""));
                        }));
        add(
                new Tool(
                        "memory.write",
                        "Store a value under a key in the shared key/value memory, replacing any previous"
                                + " value.",
                        schema(
                                List.of("key", "value"),
                                "key",
                                prop("string", "The key, e.g. user/alice/preferences."),
                                "value",
                                prop("string", "The text to store.")),
                        Role.WRITE,
                        (ns, a) -> {
                            var args = RequestBodies.bind(a, ToolArguments.MemoryWrite.class);
                            KeyValueEntry e =
                                    kv.put(
                                            ns,
                                            Fields.required(args.key(), "key"),
                                            Fields.required(args.value(), "value"));
                            return new KeyValueAnswers.Written("ok", e.key(), e.flagged());
                        }));
        add(
                new Tool(
                        "memory.search",
                        "Search the shared key/value memory by meaning and keywords; best matches first.",
                        schema(
                                List.of("query"),
                                "query",
                                prop("string", "What to look for."),
                                "top_k",
                                intProp("How many results.", 1, KeyValueMemory.MAX_LIMIT, 10)),
                        Role.READ,
                        (ns, a) -> {
                            var args = RequestBodies.bind(a, ToolArguments.MemorySearch.class);
                            return KeyValueAnswers.Results.of(
                                    kv.search(
                                            ns,
                                            Fields.required(args.query(), "query"),
                                            args.topK()));
                        }));
        add(
                new Tool(
                        "memory.list",
                        "List the entries of the shared key/value memory whose keys start with a prefix.",
                        schema(List.of(), "prefix", prop("string", "Key prefix; empty for all.")),
                        Role.READ,
                        (ns, a) ->
                                KeyValueAnswers.Entries.of(
                                        kv.list(
                                                ns,
                                                RequestBodies.bind(
                                                                a, ToolArguments.MemoryList.class)
                                                        .prefix(),
                                                KeyValueMemory.MAX_LIMIT))));
        add(
                new Tool(
                        "memory.ingest",
                        "Store a document in the key/value memory as overlapping chunks under"
                                + " {source}/chunk-NNNN, so it can be searched.",
                        schema(
                                List.of("source", "text"),
                                "source",
                                prop(
                                        "string",
                                        "Name of the document; the chunk keys start with it."),
                                "text",
                                prop("string", "The document text."),
                                "chunkSize",
                                intProp(
                                        "Characters per chunk.",
                                        1,
                                        100_000,
                                        KeyValueMemory.DEFAULT_CHUNK_SIZE),
                                "overlap",
                                intProp(
                                        "Characters shared by consecutive chunks.",
                                        0,
                                        99_999,
                                        KeyValueMemory.DEFAULT_CHUNK_OVERLAP)),
                        Role.WRITE,
                        (ns, a) -> {
                            var args = RequestBodies.bind(a, ToolArguments.MemoryIngest.class);
                            List<String> keys =
                                    kv.ingest(
                                            ns,
                                            Fields.required(args.source(), "source"),
                                            args.text(),
                                            args.chunkSize(),
                                            args.overlap());
                            return new KeyValueAnswers.Ingested(keys.size(), keys);
                        }));
        return this;
    }

    /** {@code remember} and {@code propose_memory}: both file proposals for review. */
    ToolRoutes proposalTools(Proposals proposals) {
        add(
                new Tool(
                        "remember",
                        "Ask for something to be remembered long-term. Files a memory proposal that a"
                                + " reviewer accepts or rejects; nothing is stored until then.",
                        schema(
                                List.of("content"),
                                "content",
                                prop(
                                        "string",
                                        "The fact, preference or decision to remember, one sentence."),
                                "memoryType",
                                enumProp(
                                        "Kind of memory.",
                                        java.util.Arrays.stream(
                                                        dev.cairn.memory.MemoryType.values())
                                                .map(Enum::name)
                                                .toList()),
                                "reason",
                                prop("string", "Why it is worth remembering."),
                                "tags",
                                Map.of("type", "array", "items", Map.of("type", "string")),
                                "agentName",
                                prop("string", "The agent asking."),
                                "taskName",
                                prop("string", "The task it came from.")),
                        Role.WRITE,
                        (ns, a) -> {
                            var args = RequestBodies.bind(a, ToolArguments.Remember.class);
                            String content = Fields.required(args.content(), "content");
                            String description =
                                    args.reason()
                                            + (args.tags().isEmpty()
                                                    ? ""
                                                    : "\nTags: " + String.join(", ", args.tags()));
                            String title =
                                    content.length() <= 80
                                            ? content
                                            : content.substring(0, 79) + "…";
                            var p =
                                    proposals.file(
                                            ns,
                                            new NewProposal(
                                                    ProposalType.MEMORY,
                                                    title,
                                                    description,
                                                    content,
                                                    args.taskName(),
                                                    args.agentName(),
                                                    ProposalRoutes.memoryType(args.memoryType())));
                            return MemoryViews.proposal(p);
                        }));
        add(
                new Tool(
                        "propose_memory",
                        "File a proposal (a memory, policy, workflow or skill) for human review. Put"
                                + " suggested tags on a first line 'Tags: a, b' of the description.",
                        schema(
                                List.of("type", "title", "content"),
                                "type",
                                enumProp(
                                        "What is proposed.",
                                        List.of("memory", "policy", "workflow", "skill")),
                                "title",
                                prop("string", "Short title."),
                                "description",
                                prop("string", "Why; may start with a 'Tags:' line."),
                                "content",
                                prop("string", "The proposed text."),
                                "memoryType",
                                prop(
                                        "string",
                                        "For memory proposals: FACT, PREFERENCE, DECISION, ..."),
                                "taskName",
                                prop("string", "The task it came from."),
                                "agentName",
                                prop("string", "The agent proposing.")),
                        Role.WRITE,
                        (ns, a) ->
                                MemoryViews.proposal(
                                        proposals.file(
                                                ns,
                                                ProposalRoutes.newProposal(
                                                        RequestBodies.bind(
                                                                a, NewProposalBody.class))))));
        return this;
    }

    /** {@code search_transcript}. */
    ToolRoutes transcriptTools(Transcripts transcripts) {
        add(
                new Tool(
                        "search_transcript",
                        "Search earlier conversation messages; answers short snippets with their"
                                + " conversation and message ids.",
                        schema(
                                List.of("query"),
                                "query",
                                prop("string", "What to look for."),
                                "conversationId",
                                prop("string", "Only this conversation."),
                                "sessionName",
                                prop("string", "Only this session (an ARK conversation id)."),
                                "limit",
                                intProp("How many snippets.", 1, Transcripts.MAX_LIMIT, 10)),
                        Role.READ,
                        (ns, a) ->
                                Map.of(
                                        "items",
                                        TranscriptRoutes.search(
                                                        transcripts,
                                                        ns,
                                                        RequestBodies.bind(
                                                                a, TranscriptSearchBody.class))
                                                .stream()
                                                .map(TranscriptHitView::of)
                                                .toList())));
        return this;
    }

    /** {@code retrieve} over the knowledge base. */
    ToolRoutes retrievalTools(KnowledgeBase knowledge) {
        add(
                new Tool(
                        "retrieve",
                        "Search the namespace's documents (runbooks, policies, notes) for grounding;"
                                + " answers the best passages with their documents, scores and an answer"
                                + " plan.",
                        schema(
                                List.of("query"),
                                "query",
                                prop("string", "The question or keywords."),
                                "topK",
                                intProp("How many passages.", 1, 100, 10)),
                        Role.READ,
                        (ns, a) ->
                                KnowledgeViews.retrieve(
                                        knowledge.retrieve(
                                                ns,
                                                LibraryRequests.retrieve(
                                                        RequestBodies.bind(a, RetrieveBody.class))),
                                        false)));
        return this;
    }

    /** {@code recall_memory} over the memory service. */
    ToolRoutes memoryTools(MemoryPort memory) {
        add(
                new Tool(
                        "recall_memory",
                        "Recall durable memories relevant to a query (facts, preferences, decisions,"
                                + " procedures), with an assembled context block ready for a prompt.",
                        schema(
                                List.of("query"),
                                "query",
                                prop("string", "What the memories should be about."),
                                "userId",
                                prop("string", "Only memories of this user."),
                                "agentId",
                                prop("string", "Only memories of this agent."),
                                "scope",
                                prop(
                                        "string",
                                        "Without userId: 'namespace' reads every user's"
                                                + " memories; a namespace whose recallScope is"
                                                + " 'user' refuses a recall with neither."),
                                "limit",
                                intProp("Most memories.", 1, 200, 25),
                                "maxTokens",
                                intProp(
                                        "Budget of the context block in tokens.",
                                        0,
                                        100_000,
                                        3500)),
                        Role.READ,
                        (ns, a) -> memory.recall(ns, RequestBodies.bind(a, RecallBody.class))));
        return this;
    }
}
