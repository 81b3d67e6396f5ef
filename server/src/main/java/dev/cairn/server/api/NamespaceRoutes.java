package dev.cairn.server.api;

import dev.cairn.api.body.NamespaceBody;
import dev.cairn.api.body.NamespaceSettingsBody;
import dev.cairn.server.api.view.GovernanceViews;
import dev.cairn.server.auth.AuthFilter;
import dev.cairn.server.auth.Principal;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.Fields;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.Paging;
import dev.cairn.server.http.QueryParameters;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Namespace;
import dev.cairn.store.Page;
import dev.cairn.store.PageRequest;
import dev.cairn.store.Store;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.NoSuchElementException;

/** {@code /v1/namespaces}: create (admin), list (what the token may see), get, delete (admin). */
public final class NamespaceRoutes implements HttpService {

    private final Store store;
    private final long maxBodyBytes;

    public NamespaceRoutes(Store store, long maxBodyBytes) {
        this.store = store;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/v1/namespaces", this::create)
                .get("/v1/namespaces", QueryParameters.PAGE.to(this::list))
                .get("/v1/namespaces/{ns}", this::get)
                .patch("/v1/namespaces/{ns}", this::update)
                .delete("/v1/namespaces/{ns}", this::delete);
        Routes.methodNotAllowed(rules, "/v1/namespaces", "/v1/namespaces/{ns}");
    }

    private void create(ServerRequest req, ServerResponse res) {
        Principal caller = AuthFilter.principal(req);
        caller.requireEverywhere(Role.ADMIN);
        NamespaceBody body = RequestBodies.read(req, maxBodyBytes, NamespaceBody.class);
        String name = Namespace.requireValidName(Fields.required(body.name(), "name"));
        Json.send(
                res,
                201,
                GovernanceViews.namespace(
                        store.createNamespace(
                                name, body.description(), LibraryRequests.recallScope(body))));
    }

    private void update(ServerRequest req, ServerResponse res) {
        String ns = Namespace.requireValidName(req.path().pathParameters().get("ns"));
        AuthFilter.principal(req).require(Role.ADMIN, ns);
        NamespaceSettingsBody body =
                RequestBodies.read(req, maxBodyBytes, NamespaceSettingsBody.class);
        Namespace updated =
                store.setRecallScope(ns, LibraryRequests.recallScope(body))
                        .orElseThrow(
                                () ->
                                        new NoSuchElementException(
                                                "namespace '" + ns + "' does not exist"));
        Json.send(res, 200, GovernanceViews.namespace(updated));
    }

    private void list(ServerRequest req, ServerResponse res) {
        Principal caller = AuthFilter.principal(req);
        PageRequest page = Paging.pageRequest(req);
        if (caller.token().namespaces().contains("*")) {
            Json.send(res, 200, Paging.answer(store.namespaces(page), GovernanceViews::namespace));
            return;
        }
        List<Namespace> visible =
                caller.token().namespaces().stream()
                        .sorted()
                        .filter(ns -> ns.compareTo(page.after()) > 0)
                        .map(store::namespace)
                        .flatMap(java.util.Optional::stream)
                        .toList();
        List<Namespace> items = visible.stream().limit(page.limit()).toList();
        String next =
                visible.size() > page.limit()
                        ? PageRequest.cursorAfter(items.getLast().name())
                        : "";
        Json.send(
                res,
                200,
                Paging.answer(new Page<>(items, visible.size(), next), GovernanceViews::namespace));
    }

    private void get(ServerRequest req, ServerResponse res) {
        String ns = requireReadable(req, store);
        Json.send(res, 200, GovernanceViews.namespace(store.namespace(ns).orElseThrow()));
    }

    private void delete(ServerRequest req, ServerResponse res) {
        String ns = req.path().pathParameters().get("ns");
        AuthFilter.principal(req).require(Role.ADMIN, ns);
        if (!store.deleteNamespace(ns)) {
            throw new NoSuchElementException("namespace '" + ns + "' does not exist");
        }
        res.status(204).send();
    }

    /**
     * The {@code {ns}} path parameter after checking the caller may read it (403) and that it
     * exists (404). The grant is checked first so that a token learns nothing about namespaces
     * outside its grants.
     */
    static String requireReadable(ServerRequest req, Store store) {
        return requireNamespace(req, store, Role.READ);
    }

    static String requireNamespace(ServerRequest req, Store store, Role role) {
        return require(
                AuthFilter.principal(req), store, req.path().pathParameters().get("ns"), role);
    }

    /**
     * Checks that {@code principal} holds {@code role} on {@code ns} and that the namespace exists;
     * shared with the MCP tools, which know the namespace and caller without a route.
     */
    public static String require(
            dev.cairn.server.auth.Principal principal, Store store, String ns, Role role) {
        principal.require(role, ns);
        if (store.namespace(ns).isEmpty()) {
            throw new NoSuchElementException("namespace '" + ns + "' does not exist");
        }
        return ns;
    }
}
