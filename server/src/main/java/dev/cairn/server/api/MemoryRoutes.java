package dev.cairn.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.api.body.MemoryEditBody;
import dev.cairn.api.body.NewMemoryBody;
import dev.cairn.api.body.ReasonBody;
import dev.cairn.api.body.RecallBody;
import dev.cairn.memory.Layer;
import dev.cairn.memory.MemorySource;
import dev.cairn.memory.MemoryStatus;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.NewMemory;
import dev.cairn.memory.Scope;
import dev.cairn.memory.service.MemoryEdit;
import dev.cairn.memory.service.MemoryService;
import dev.cairn.memory.service.RecallResult;
import dev.cairn.memory.service.WriteResult;
import dev.cairn.memory.store.MemoryFilter;
import dev.cairn.server.api.view.MemoryViews;
import dev.cairn.server.auth.AuthFilter;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.Fields;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.MetricsFilter;
import dev.cairn.server.http.Paging;
import dev.cairn.server.http.QueryParameters;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Store;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

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
                .get(BASE + "/memories", LIST_PARAMETERS.to(this::list))
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
        NewMemory draft = draft(ns, body);
        WriteResult result = memory.write(draft, actor(req));
        Json.send(res, result.deduplicated() ? 200 : 201, MemoryViews.written(result));
    }

    /**
     * The memory a {@code POST memories} body asks for in a namespace (the MCP {@code remember}
     * tool binds the same body).
     */
    public static NewMemory draft(String ns, NewMemoryBody body) {
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
        return NewMemory.of(scope, type, body.content())
                .withLayer(body.layer().isEmpty() ? type.defaultLayer() : Layer.parse(body.layer()))
                .withTags(body.tags())
                .withConfidence(
                        unit(
                                Objects.requireNonNullElse(
                                        body.confidence(), NewMemory.DEFAULT_CONFIDENCE),
                                "confidence"))
                .withImportance(
                        unit(
                                Objects.requireNonNullElse(
                                        body.importance(), NewMemory.DEFAULT_IMPORTANCE),
                                "importance"))
                .withConflictKey(body.conflictKey())
                .withSource(source(body.source()))
                .withTtlDays(body.ttlDays());
    }

    /** The filters of {@code GET memories}, each read in {@link #list}, and paging. */
    private static final QueryParameters LIST_PARAMETERS =
            QueryParameters.PAGE.and(
                    "q",
                    "type",
                    "status",
                    "tags",
                    "userId",
                    "agentId",
                    "sessionName",
                    "taskName",
                    "parentTask",
                    "source",
                    "ids",
                    "includeDisabled",
                    "includeDeleted");

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
                        .withIncludeDisabled(QueryParameters.flag(req, "includeDisabled"))
                        .withIncludeDeleted(QueryParameters.flag(req, "includeDeleted"));
        Json.send(
                res,
                200,
                Paging.answer(
                        memory.list(ns, filter, Paging.pageRequest(req)), MemoryViews::memory));
    }

    private void get(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        String id = id(req);
        Json.send(res, 200, MemoryViews.detail(memory.get(ns, id), memory.history(ns, id)));
    }

    private void update(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        MemoryEditBody body = RequestBodies.read(req, maxBodyBytes, MemoryEditBody.class);
        List<MemoryEdit> edits = edits(body);
        WriteResult result = memory.update(ns, id(req), edits, actor(req));
        Json.send(res, 200, MemoryViews.written(result));
    }

    /**
     * The edits a {@code PUT} body asks for; shared with the MCP {@code update_memory} tool, so
     * both refuse the same fields.
     */
    public static List<MemoryEdit> edits(MemoryEditBody body) {
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
        return edits;
    }

    private void delete(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        memory.delete(ns, id(req), actor(req));
        res.status(204).send();
    }

    private void disable(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        Json.send(
                res, 200, MemoryViews.memory(memory.disable(ns, id(req), actor(req), reason(req))));
    }

    private void enable(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        Json.send(
                res, 200, MemoryViews.memory(memory.enable(ns, id(req), actor(req), reason(req))));
    }

    private void invalidate(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        Json.send(
                res,
                200,
                MemoryViews.memory(memory.invalidate(ns, id(req), actor(req), reason(req))));
    }

    private void recall(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.READ);
        RecallBody body = RequestBodies.read(req, maxBodyBytes, RecallBody.class);
        RecallResult result = memory.recall(LibraryRequests.recall(ns, body));
        if (result.partial()) {
            MetricsFilter.markPartial(req);
        }
        Json.send(res, 200, MemoryViews.recall(result));
    }

    // ---- parsing ------------------------------------------------------------------------

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
}
