package dev.cairn.server.api;

import dev.cairn.api.body.RelationBody;
import dev.cairn.api.view.ListAnswer;
import dev.cairn.graph.DocumentGraph;
import dev.cairn.graph.EntityDetail;
import dev.cairn.graph.EntitySummary;
import dev.cairn.graph.GraphRelation;
import dev.cairn.graph.RelationType;
import dev.cairn.retrieval.KnowledgeBase;
import dev.cairn.retrieval.KnowledgeGraph;
import dev.cairn.server.api.view.EntityView;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.Fields;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.LogText;
import dev.cairn.server.http.Paging;
import dev.cairn.server.http.QueryParameters;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Entity graph resources under {@code /v1/namespaces/{ns}}: {@code GET entities}, {@code GET
 * entities/{id}} and {@code POST relations}. Thread-safe.
 */
public final class GraphRoutes implements HttpService {

    private static final String BASE = "/v1/namespaces/{ns}";
    private final KnowledgeGraph graph;
    private final KnowledgeBase knowledge;
    private final Store store;
    private final long maxBodyBytes;

    public GraphRoutes(KnowledgeGraph graph, KnowledgeBase knowledge, long maxBodyBytes) {
        this.graph = graph;
        this.knowledge = knowledge;
        this.store = knowledge.store();
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get(
                        BASE + "/entities",
                        QueryParameters.accept("q", "limit", "relations").to(this::listEntities))
                .get(
                        BASE + "/entities/{id}",
                        QueryParameters.accept("relations").to(this::getEntity))
                .post(BASE + "/relations", this::createRelation)
                .get(BASE + "/documents/{id}/graph", this::documentGraph);
        Routes.methodNotAllowed(
                rules,
                BASE + "/entities",
                BASE + "/entities/{id}",
                BASE + "/relations",
                BASE + "/documents/{id}/graph");
    }

    /**
     * The most relations each listed entity can carry ({@code GET entities?relations=N}): a page of
     * entities with their strongest relations is a map's first view in one call, bounded.
     */
    static final int MAX_LISTED_RELATIONS = 100;

    private void listEntities(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        int limit = boundedParam(req, "limit", PageRequest.DEFAULT_LIMIT, 1, PageRequest.MAX_LIMIT);
        int relations = boundedParam(req, "relations", 0, 0, MAX_LISTED_RELATIONS);
        knowledge.catchUp();
        String q = req.query().first("q").orElse("");
        List<EntitySummary> all = graph.searchEntities(ns, q, Integer.MAX_VALUE);
        List<EntitySummary> page = all.subList(0, Math.min(limit, all.size()));
        List<?> items =
                relations == 0
                        ? page.stream().map(EntityView::of).toList()
                        : page.stream()
                                .flatMap(e -> graph.entity(ns, e.id()).stream())
                                .map(d -> EntityView.Detail.of(d, relations))
                                .toList();
        Json.send(res, 200, new ListAnswer<>(items, all.size(), null));
    }

    private void getEntity(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        String id = req.path().pathParameters().get("id");
        int relations = boundedParam(req, "relations", Integer.MAX_VALUE, 0, Integer.MAX_VALUE);
        knowledge.catchUp();
        EntityDetail detail =
                graph.entity(ns, id)
                        .orElseThrow(
                                () ->
                                        new NoSuchElementException(
                                                "entity '" + id + "' not found in " + ns));
        Json.send(res, 200, EntityView.Detail.of(detail, relations));
    }

    /** An integer query parameter in {@code [min, max]}; 400 outside. */
    private static int boundedParam(
            ServerRequest req, String name, int defaultValue, int min, int max) {
        int value = Paging.intParam(req, name, defaultValue);
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    "illegal " + name + ": " + value + ", must be in [" + min + ", " + max + "]");
        }
        return value;
    }

    private void documentGraph(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireReadable(req, store);
        String id = req.path().pathParameters().get("id");
        knowledge.catchUp();
        DocumentGraph document =
                graph.document(ns, id)
                        .orElseThrow(
                                () ->
                                        new NoSuchElementException(
                                                "document '" + id + "' not found in " + ns));
        Json.send(res, 200, EntityView.DocumentGraphView.of(id, document));
    }

    /** The prefix that makes a relation end name a document of the namespace. */
    static final String DOCUMENT_PREFIX = "document:";

    /**
     * A relation end: an entity name or a document id as it is, or {@code document:<id>}, which
     * must name a document of this namespace (a relation never reaches into another namespace, nor
     * creates a phantom entity for a document that is not there).
     */
    private String end(String ns, String value, String field) {
        if (!value.startsWith(DOCUMENT_PREFIX)) {
            return value;
        }
        String id = value.substring(DOCUMENT_PREFIX.length());
        if (id.isBlank() || knowledge.documents().document(ns, id).isEmpty()) {
            throw new IllegalArgumentException(
                    "field '"
                            + field
                            + "' names document '"
                            + LogText.escape(id)
                            + "', which is not in namespace '"
                            + ns
                            + "'");
        }
        return id;
    }

    private void createRelation(ServerRequest req, ServerResponse res) {
        String ns = NamespaceRoutes.requireNamespace(req, store, Role.WRITE);
        RelationBody body = RequestBodies.read(req, maxBodyBytes, RelationBody.class);
        String from = end(ns, Fields.required(body.from(), "from"), "from");
        String to = end(ns, Fields.required(body.to(), "to"), "to");
        RelationType type = RelationType.parse(Fields.required(body.type(), "type"));
        double confidence = body.confidence();
        KnowledgeGraph.AddedRelation added = graph.addRelation(ns, from, to, type, confidence);
        knowledge.catchUp(); // applies the RELATION change to the graph
        // ends as resolved at write time: entity:ledgerdb or document:..., never unresolved:
        GraphRelation relation = graph.locate(ns, added.relation());
        Json.send(
                res,
                added.created() ? 201 : 200,
                EntityView.Relation.of(relation, added.confidence()));
    }
}
