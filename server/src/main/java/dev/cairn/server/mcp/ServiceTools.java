package dev.cairn.server.mcp;

import static dev.cairn.server.api.ToolRoutes.enumProp;
import static dev.cairn.server.api.ToolRoutes.intProp;
import static dev.cairn.server.api.ToolRoutes.prop;
import static dev.cairn.server.api.ToolRoutes.schema;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.api.body.DocumentBody;
import dev.cairn.api.body.JudgeBody;
import dev.cairn.api.body.MemoryEditBody;
import dev.cairn.api.body.NewMemoryBody;
import dev.cairn.api.view.ListAnswer;
import dev.cairn.graph.EntitySummary;
import dev.cairn.judge.service.JudgeService;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.KnowledgeGraph;
import dev.cairn.server.api.JudgeRoutes;
import dev.cairn.server.api.KnowledgeRoutes;
import dev.cairn.server.api.MemoryRoutes;
import dev.cairn.server.api.view.EntityView;
import dev.cairn.server.api.view.GovernanceViews;
import dev.cairn.server.api.view.MemoryViews;
import dev.cairn.server.api.view.TraceView;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.Fields;
import dev.cairn.server.http.RequestBodies;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The MCP tools that have no {@code /v1} tool twin: memory writes and edits, document ingest,
 * judging, traces and the entity graph. ({@code remember} here stores the memory, as the MCP issue
 * asks; the {@code /v1} tool of that name files a proposal.) Each one binds its arguments to the
 * REST route's body record and calls the same service (and the same shared helper) as that route.
 */
final class ServiceTools {

    /** Arguments of the tools whose REST twin takes the id from the path. */
    record Forget(String id, String reason, Boolean invalidate) {}

    record TraceId(String traceId) {}

    record EntityId(String id) {}

    record FindEntities(String query, Integer limit) {}

    private static final Map<String, Object> STRING_LIST =
            Map.of("type", "array", "items", Map.of("type", "string"));

    private ServiceTools() {}

    static List<CairnMcp.McpTool> all(
            MemoryService memory,
            KnowledgeBase knowledge,
            KnowledgeGraph graph,
            JudgeService judge) {
        return List.of(
                remember(memory),
                forget(memory),
                updateMemory(memory),
                ingestDocument(knowledge),
                judgeAnswer(judge),
                getTrace(knowledge),
                findEntities(knowledge, graph),
                getEntity(knowledge, graph));
    }

    /** The remember tool. */
    private static CairnMcp.McpTool remember(MemoryService memory) {
        return new CairnMcp.McpTool(
                "remember",
                "Store a durable memory now: a fact, preference or decision worth keeping"
                        + " for later conversations, one sentence. If an equivalent memory"
                        + " exists it is merged into that one. Answers the memory (its id"
                        + " is what forget and update_memory take) and, when merged,"
                        + " deduplicatedInto. To ask a human first, use propose_memory.",
                schema(
                        List.of("content"),
                        "content",
                        prop("string", "What to remember, one sentence."),
                        "type",
                        enumProp(
                                "Kind of memory; FACT when absent.",
                                Arrays.stream(MemoryType.values()).map(Enum::name).toList()),
                        "userId",
                        prop("string", "The user it is about, if any."),
                        "agentId",
                        prop("string", "The agent it belongs to, if any."),
                        "tags",
                        STRING_LIST,
                        "confidence",
                        prop("number", "0 to 1."),
                        "conflictKey",
                        prop("string", "Memories with one key supersede each other.")),
                Role.WRITE,
                (ns, caller, a) -> {
                    ObjectNode body = a.deepCopy();
                    if (!body.hasNonNull("type")) {
                        body.put("type", MemoryType.FACT.name());
                    }
                    NewMemoryBody args = RequestBodies.bind(body, NewMemoryBody.class);
                    return MemoryViews.written(memory.write(MemoryRoutes.draft(ns, args), caller));
                });
    }

    /** The forget tool. */
    private static CairnMcp.McpTool forget(MemoryService memory) {
        return new CairnMcp.McpTool(
                "forget",
                "Remove one durable memory by id (from recall). By default it is"
                        + " soft-deleted; with invalidate=true it stays in history as no"
                        + " longer true, with the reason. Answers what happened.",
                schema(
                        List.of("id"),
                        "id",
                        prop("string", "The memory id."),
                        "reason",
                        prop("string", "Why it is wrong or no longer wanted."),
                        "invalidate",
                        prop("boolean", "Mark it invalid instead of deleting it.")),
                Role.WRITE,
                (ns, caller, a) -> {
                    Forget args = RequestBodies.bind(a, Forget.class);
                    String id = Fields.required(args.id(), "id");
                    String reason = args.reason() == null ? "" : args.reason();
                    if (Boolean.TRUE.equals(args.invalidate())) {
                        return Map.of(
                                "action",
                                "invalidated",
                                "memory",
                                MemoryViews.memory(memory.invalidate(ns, id, caller, reason)));
                    }
                    memory.delete(ns, id, caller);
                    return Map.of("action", "deleted", "id", id);
                });
    }

    /** The update_memory tool. */
    private static CairnMcp.McpTool updateMemory(MemoryService memory) {
        return new CairnMcp.McpTool(
                "update_memory",
                "Correct a durable memory in place: its content, type, layer, tags,"
                        + " confidence or conflict key; absent fields stay. Answers the new"
                        + " version.",
                schema(
                        List.of("id"),
                        "id",
                        prop("string", "The memory id."),
                        "content",
                        prop("string", "The corrected text."),
                        "type",
                        prop("string", "FACT, PREFERENCE, DECISION, ..."),
                        "layer",
                        prop("string", "The memory layer."),
                        "tags",
                        STRING_LIST,
                        "confidence",
                        prop("number", "0 to 1."),
                        "conflictKey",
                        prop("string", "Memories with one key supersede each other.")),
                Role.WRITE,
                (ns, caller, a) -> {
                    ObjectNode rest = a.deepCopy();
                    String id = Fields.required(rest.path("id").asText(null), "id");
                    rest.remove("id");
                    var edits = MemoryRoutes.edits(RequestBodies.bind(rest, MemoryEditBody.class));
                    return MemoryViews.written(memory.update(ns, id, edits, caller));
                });
    }

    /** The ingest_document tool. */
    private static CairnMcp.McpTool ingestDocument(KnowledgeBase knowledge) {
        return new CairnMcp.McpTool(
                "ingest_document",
                "Add or replace a document in the knowledge base so retrieve finds it."
                        + " Content is Markdown, optionally with YAML front matter (id,"
                        + " title, tags, authority); fields given here win. Answers its id,"
                        + " version and chunk count.",
                schema(
                        List.of("content"),
                        "content",
                        prop("string", "The Markdown (or text) document."),
                        "id",
                        prop("string", "Document id; from front matter or title if absent."),
                        "title",
                        prop("string", "Title."),
                        "format",
                        enumProp("The content format.", List.of("markdown", "text")),
                        "source",
                        prop("string", "Where it comes from (URL, path)."),
                        "authority",
                        prop("string", "authoritative, supporting or unverified."),
                        "tags",
                        STRING_LIST),
                Role.WRITE,
                (ns, caller, a) ->
                        KnowledgeRoutes.ingest(
                                knowledge, ns, RequestBodies.bind(a, DocumentBody.class)));
    }

    /** The judge_answer tool. */
    private static CairnMcp.McpTool judgeAnswer(JudgeService judge) {
        return new CairnMcp.McpTool(
                "judge_answer",
                "Check whether an answer is supported by evidence: give the traceId of"
                        + " the retrieve that grounded it, or the evidence passages. Answers"
                        + " a verdict with per-claim support.",
                schema(
                        List.of("answer"),
                        "answer",
                        prop("string", "The answer to check."),
                        "query",
                        prop("string", "The question it answers."),
                        "traceId",
                        prop("string", "A retrieve trace id."),
                        "evidence",
                        Map.of(
                                "type",
                                "array",
                                "items",
                                schema(
                                        List.of("id", "text"),
                                        "id",
                                        prop("string", "Evidence id."),
                                        "text",
                                        prop("string", "Evidence text."),
                                        "title",
                                        prop("string", "Title."),
                                        "authority",
                                        prop("string", "Its authority."))),
                        "policy",
                        prop("string", "A judge policy name; the default when absent.")),
                Role.READ,
                (ns, caller, a) ->
                        GovernanceViews.judged(
                                judge.judge(
                                        ns,
                                        JudgeRoutes.request(
                                                RequestBodies.bind(a, JudgeBody.class)))));
    }

    /** The get_trace tool. */
    private static CairnMcp.McpTool getTrace(KnowledgeBase knowledge) {
        return new CairnMcp.McpTool(
                "get_trace",
                "Show how an earlier retrieve was answered: the query plan, each"
                        + " retriever's hits and the fused ranking, by trace id.",
                schema(List.of("traceId"), "traceId", prop("string", "The trace id.")),
                Role.READ,
                (ns, caller, a) -> {
                    String id =
                            Fields.required(
                                    RequestBodies.bind(a, TraceId.class).traceId(), "traceId");
                    return TraceView.of(
                            knowledge
                                    .trace(ns, id)
                                    .orElseThrow(
                                            () ->
                                                    new NoSuchElementException(
                                                            "trace '" + id + "' does not exist")));
                });
    }

    /** The find_entities tool. */
    private static CairnMcp.McpTool findEntities(KnowledgeBase knowledge, KnowledgeGraph graph) {
        return new CairnMcp.McpTool(
                "find_entities",
                "Find entities (people, systems, teams, ...) of the knowledge graph by"
                        + " name; answers their ids, kinds and mention counts.",
                schema(
                        List.of(),
                        "query",
                        prop("string", "Name or part of it; empty for all."),
                        "limit",
                        intProp("How many.", 1, 200, 20)),
                Role.READ,
                (ns, caller, a) -> {
                    FindEntities args = RequestBodies.bind(a, FindEntities.class);
                    int limit = args.limit() == null ? 20 : args.limit();
                    if (limit < 1 || limit > 200) {
                        throw new IllegalArgumentException(
                                "illegal limit: " + limit + ", must be in [1, 200]");
                    }
                    knowledge.catchUp();
                    List<EntitySummary> all =
                            graph.searchEntities(
                                    ns,
                                    args.query() == null ? "" : args.query(),
                                    Integer.MAX_VALUE);
                    return new ListAnswer<>(
                            all.subList(0, Math.min(limit, all.size())).stream()
                                    .map(EntityView::of)
                                    .toList(),
                            all.size(),
                            null);
                });
    }

    /** The get_entity tool. */
    private static CairnMcp.McpTool getEntity(KnowledgeBase knowledge, KnowledgeGraph graph) {
        return new CairnMcp.McpTool(
                "get_entity",
                "One entity of the knowledge graph with its relations and the documents"
                        + " that mention it.",
                schema(List.of("id"), "id", prop("string", "The entity id.")),
                Role.READ,
                (ns, caller, a) -> {
                    String id = Fields.required(RequestBodies.bind(a, EntityId.class).id(), "id");
                    knowledge.catchUp();
                    return EntityView.Detail.of(
                            graph.entity(ns, id)
                                    .orElseThrow(
                                            () ->
                                                    new NoSuchElementException(
                                                            "entity '"
                                                                    + id
                                                                    + "' not found in "
                                                                    + ns)));
                });
    }
}
