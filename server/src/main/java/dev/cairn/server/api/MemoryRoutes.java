package dev.cairn.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.memory.AssembledContext;
import dev.cairn.memory.Layer;
import dev.cairn.memory.Memory;
import dev.cairn.memory.MemorySource;
import dev.cairn.memory.MemoryStatus;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;
import dev.cairn.memory.ScoredMemory;
import dev.cairn.memory.StatusTransition;
import dev.cairn.memory.service.MemoryEdit;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.memory.service.RecallResult;
import dev.cairn.memory.service.WriteResult;
import dev.cairn.memory.store.MemoryFilter;
import dev.cairn.safety.WriteBlockedException;
import dev.cairn.server.api.body.MemoryEditBody;
import dev.cairn.server.api.body.NewMemoryBody;
import dev.cairn.server.api.body.ReasonBody;
import dev.cairn.server.api.body.RecallBody;
import dev.cairn.server.auth.AuthFilter;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.Fields;
import dev.cairn.server.http.HttpProblem;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.Paging;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Store;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Memory resources under {@code /v1/namespaces/{ns}} (API.md): {@code memories} CRUD with the list
 * filters, {@code disable}/{@code enable}/{@code invalidate}, and {@code recall}. Reads need the
 * {@code read} role, everything else {@code write}. Text refused by write safety is a 422 naming
 * the rule. Thread-safe.
 */
public final class MemoryRoutes implements HttpService {

    private static final String BASE = "/v1/namespaces/{ns}";

    private final MemoryService memory;
    private final Store store;
    private final long maxBodyBytes;

    public MemoryRoutes(MemoryService memory, Store store, long maxBodyBytes) {
        this.memory = memory;
        this.store = store;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post(BASE + "/memories", this::create)
                .get(BASE + "/memories", this::list)
                .get(BASE + "/memories/{id}", this::get)
                .put(BASE + "/memories/{id}", this::update)
                .delete(BASE + "/memories/{id}", this::delete)
                .post(BASE + "/memories/{id}/disable", this::disable)
                .post(BASE + "/memories/{id}/enable", this::enable)
                .post(BASE + "/memories/{id}/invalidate", this::invalidate)
                .post(BASE + "/recall", this::recall);
        Routes.methodNotAllowed(
                rules,
                BASE + "/memories",
                BASE + "/memories/{id}",
                BASE + "/memories/{id}/disable",
                BASE + "/memories/{id}/enable",
                BASE + "/memories/{id}/invalidate",
                BASE + "/recall");
    }

    // ---- handlers -----------------------------------------------------------------------

    private void create(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        NewMemoryBody body = RequestBodies.read(req, maxBodyBytes, NewMemoryBody.class);
        MemoryType type = MemoryType.parse(Fields.required(body.type(), "type"));
        if (body.content().isBlank()) {
            throw new IllegalArgumentException("field 'content' is required and must not be blank");
        }
        Scope scope =
                new Scope(
                        ns,
                        body.userId(),
                        body.agentId(),
                        body.sessionName(),
                        body.taskName(),
                        body.parentTask());
        NewMemory draft =
                NewMemory.of(scope, type, body.content())
                        .withLayer(
                                body.layer().isEmpty()
                                        ? type.defaultLayer()
                                        : Layer.parse(body.layer()))
                        .withTags(body.tags())
                        .withConfidence(unit(body.confidence(), "confidence"))
                        .withImportance(unit(body.importance(), "importance"))
                        .withConflictKey(body.conflictKey())
                        .withSource(source(body.source()))
                        .withTtlDays(body.ttlDays());
        WriteResult result = guarded(() -> memory.write(draft, actor(req)));
        Json.send(res, result.deduplicated() ? 200 : 201, writeView(result));
    }

    private void list(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        MemoryFilter filter =
                MemoryFilter.all()
                        .withText(query(req, "q"))
                        .withTypes(enums(req, "type", MemoryType::parse))
                        .withStatuses(enums(req, "status", MemoryStatus::parse))
                        .withTags(csv(req, "tags"))
                        .withUser(query(req, "userId"))
                        .withAgent(query(req, "agentId"))
                        .withSession(query(req, "sessionName"))
                        .withTask(query(req, "taskName"), query(req, "parentTask"))
                        .withSources(enums(req, "source", MemorySource.Kind::parse))
                        .withIds(csv(req, "ids"))
                        .withIncludeDisabled(bool(req, "includeDisabled"))
                        .withIncludeDeleted(bool(req, "includeDeleted"));
        Json.send(
                res,
                200,
                Paging.listAnswer(
                        memory.list(ns, filter, Paging.pageRequest(req)), MemoryRoutes::view));
    }

    private void get(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        String id = id(req);
        Map<String, Object> view = view(memory.get(ns, id));
        view.put(
                "transitions",
                memory.history(ns, id).stream().map(MemoryRoutes::transitionView).toList());
        Json.send(res, 200, view);
    }

    private void update(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        MemoryEditBody body = RequestBodies.read(req, maxBodyBytes, MemoryEditBody.class);
        if (body.status() != null) {
            MemoryStatus.parse(body.status());
            throw new IllegalArgumentException(
                    "field 'status' cannot be set with PUT, use POST memories/{id}/invalidate");
        }
        List<MemoryEdit> edits = new ArrayList<>();
        if (body.content() != null) {
            if (body.content().isBlank()) {
                throw new IllegalArgumentException("field 'content' must not be blank");
            }
            edits.add(new MemoryEdit.Content(body.content()));
        }
        if (body.type() != null) {
            edits.add(new MemoryEdit.TypeEdit(MemoryType.parse(body.type())));
        }
        if (body.layer() != null) {
            edits.add(new MemoryEdit.LayerEdit(Layer.parse(body.layer())));
        }
        if (body.tags() != null) {
            edits.add(new MemoryEdit.Tags(body.tags()));
        }
        if (body.confidence() != null) {
            edits.add(new MemoryEdit.Confidence(unit(body.confidence(), "confidence")));
        }
        if (body.importance() != null) {
            edits.add(new MemoryEdit.Importance(unit(body.importance(), "importance")));
        }
        if (body.conflictKey() != null) {
            edits.add(new MemoryEdit.ConflictKey(body.conflictKey()));
        }
        WriteResult result = guarded(() -> memory.update(ns, id(req), edits, actor(req)));
        Json.send(res, 200, writeView(result));
    }

    private void delete(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        memory.delete(ns, id(req), actor(req));
        res.status(204).send();
    }

    private void disable(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        Json.send(res, 200, view(memory.disable(ns, id(req), actor(req), reason(req))));
    }

    private void enable(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        Json.send(res, 200, view(memory.enable(ns, id(req), actor(req), reason(req))));
    }

    private void invalidate(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        Json.send(res, 200, view(memory.invalidate(ns, id(req), actor(req), reason(req))));
    }

    private void recall(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        RecallBody body = RequestBodies.read(req, maxBodyBytes, RecallBody.class);
        Json.send(res, 200, recallView(memory.recall(body.toRequest(ns))));
    }

    // ---- views --------------------------------------------------------------------------

    /** The JSON form of a memory (also used by the command line). */
    public static Map<String, Object> view(Memory m) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("id", m.id());
        v.put("namespace", m.scope().namespace());
        v.put("type", m.type().name());
        v.put("layer", m.layer().name());
        v.put("status", m.status().name());
        v.put("content", m.content());
        v.put("tags", m.tags());
        v.put("confidence", m.confidence());
        v.put("importance", m.importance());
        v.put("conflictKey", m.conflictKey());
        v.put("userId", m.scope().userId());
        v.put("agentId", m.scope().agentId());
        v.put("sessionName", m.scope().sessionName());
        v.put("taskName", m.scope().taskName());
        v.put("parentTask", m.scope().parentTask());
        v.put(
                "source",
                Map.of("kind", m.source().kind().wireName(), "reference", m.source().reference()));
        v.put("createdAt", m.createdAt().toString());
        v.put("updatedAt", m.updatedAt().toString());
        v.put("expiresAt", m.expiresAt().toString());
        m.lastRecalled().ifPresent(at -> v.put("lastRecalledAt", at.toString()));
        v.put("recalledCount", m.recalledCount());
        v.put("disabled", m.disabled());
        v.put("deleted", m.deleted());
        v.put("contentHash", m.contentHash());
        v.put("embeddingModel", m.embeddingModel());
        return v;
    }

    private static Map<String, Object> transitionView(StatusTransition t) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("from", t.from().name());
        v.put("to", t.to().name());
        v.put("at", t.at().toString());
        v.put("actor", t.actor());
        v.put("reason", t.reason());
        return v;
    }

    private static Map<String, Object> writeView(WriteResult r) {
        Map<String, Object> v = view(r.memory());
        if (r.deduplicated()) {
            v.put("deduplicatedInto", r.memory().id());
            v.put("similarity", r.similarity());
        }
        if (!r.superseded().isEmpty()) {
            v.put("superseded", r.superseded());
        }
        Map<String, Integer> kinds = new LinkedHashMap<>();
        r.redactions().forEach((k, n) -> kinds.put(k.label(), n));
        Map<String, Object> redacted = new LinkedHashMap<>();
        redacted.put("total", kinds.values().stream().mapToInt(Integer::intValue).sum());
        redacted.put("kinds", kinds);
        v.put("redacted", redacted);
        if (!r.flagged().isEmpty()) {
            v.put("flagged", r.flagged().stream().map(f -> f.ruleName()).toList());
        }
        return v;
    }

    /** The JSON form of a recall answer (API.md; also used by the command line). */
    public static Map<String, Object> recallView(RecallResult r) {
        List<Map<String, Object>> memories = new ArrayList<>();
        for (ScoredMemory s : r.memories()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("memory", view(s.memory()));
            item.put("score", s.score());
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("relevance", s.components().relevance());
            c.put("recency", s.components().recency());
            c.put("typeBonus", s.components().typeBonus());
            c.put("confidence", s.components().confidence());
            c.put("importance", s.components().importance());
            item.put("components", c);
            memories.add(item);
        }
        AssembledContext context = r.context();
        Map<String, Object> layers = new LinkedHashMap<>();
        context.layers().forEach((layer, ids) -> layers.put(layer.name(), ids));
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("memories", memories);
        v.put("context", context.text());
        v.put("tokens", context.tokens());
        v.put("layers", layers);
        v.put("partial", r.partial());
        v.put("tookMs", r.tookMillis());
        return v;
    }

    // ---- parsing ------------------------------------------------------------------------

    private static <T> T guarded(Supplier<T> write) {
        try {
            return write.get();
        } catch (WriteBlockedException e) {
            throw new HttpProblem(422, e.getMessage());
        }
    }

    private static String actor(ServerRequest req) {
        return AuthFilter.principal(req).token().name();
    }

    private static String id(ServerRequest req) {
        return req.path().pathParameters().get("id");
    }

    private String reason(ServerRequest req) {
        return RequestBodies.readOptional(req, maxBodyBytes, ReasonBody.class, ReasonBody.NONE)
                .reason();
    }

    /** {@code source}: a kind name, or an object {@code {kind?, reference?}}. */
    private static MemorySource source(JsonNode node) {
        if (node == null || node.isNull()) {
            return MemorySource.api();
        }
        if (node.isTextual()) {
            return MemorySource.of(MemorySource.Kind.parse(node.asText()), "");
        }
        if (node.isObject()) {
            ObjectNode o = (ObjectNode) node;
            return MemorySource.of(
                    Fields.optionalText(o, "kind")
                            .map(MemorySource.Kind::parse)
                            .orElse(MemorySource.Kind.API),
                    Fields.optionalText(o, "reference").orElse(""));
        }
        throw new IllegalArgumentException(
                "field 'source' must be a kind name or an object {kind, reference}");
    }

    private static double unit(double value, String field) {
        if (!(value >= 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException(
                    "illegal " + field + ": " + value + ", must be in [0, 1]");
        }
        return value;
    }

    private static String query(ServerRequest req, String name) {
        return req.query().first(name).orElse("").strip();
    }

    private static List<String> csv(ServerRequest req, String name) {
        List<String> out = new ArrayList<>();
        for (String value : req.query().all(name, List::of)) {
            Arrays.stream(value.split(","))
                    .map(String::strip)
                    .filter(s -> !s.isEmpty())
                    .forEach(out::add);
        }
        return out;
    }

    private static <E> List<E> enums(ServerRequest req, String name, Function<String, E> parse) {
        return csv(req, name).stream().map(parse).toList();
    }

    private static boolean bool(ServerRequest req, String name) {
        String v = query(req, name).toLowerCase(Locale.ROOT);
        return switch (v) {
            case "", "false" -> false;
            case "true" -> true;
            default ->
                    throw new IllegalArgumentException(
                            "query parameter '"
                                    + name
                                    + "' must be true or false, got '"
                                    + v
                                    + "'");
        };
    }
}
