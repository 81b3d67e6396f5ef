package dev.cairn.server.api;

import dev.cairn.server.UserForgetting;
import dev.cairn.server.api.view.ForgetView;
import dev.cairn.server.auth.AuthFilter;
import dev.cairn.server.auth.Principal;
import dev.cairn.server.auth.Role;
import dev.cairn.server.http.HttpProblem;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Namespace;
import io.helidon.http.Method;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code DELETE /v1/namespaces/{ns}/users/{userId}} (admin): forgets a user everywhere ({@link
 * UserForgetting}) and answers the audit record: how many rows of each kind went, no content.
 */
public final class UserRoutes implements HttpService {

    private final UserForgetting forgetting;

    public UserRoutes(UserForgetting forgetting) {
        this.forgetting = forgetting;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.delete("/v1/namespaces/{ns}/users/{userId}", this::forget);
        Routes.methodNotAllowed(rules, "/v1/namespaces/{ns}/users/{userId}");
        // no user id at all: a bad request to DELETE, not a missing resource
        for (String path :
                new String[] {"/v1/namespaces/{ns}/users", "/v1/namespaces/{ns}/users/"}) {
            rules.any(path, this::noUser);
        }
    }

    private void forget(ServerRequest req, ServerResponse res) {
        String ns = Namespace.requireValidName(req.path().pathParameters().get("ns"));
        Principal caller = AuthFilter.principal(req);
        caller.require(Role.ADMIN, ns);
        String userId = req.path().pathParameters().get("userId");
        Json.send(res, 200, ForgetView.of(forgetting.forget(ns, userId, caller.token().name())));
    }

    private void noUser(ServerRequest req, ServerResponse res) {
        if (req.prologue().method() != Method.DELETE) {
            throw HttpProblem.methodNotAllowed(req.prologue().method().text(), req.path().path());
        }
        AuthFilter.principal(req).require(Role.ADMIN, req.path().pathParameters().get("ns"));
        throw new IllegalArgumentException("userId must not be empty");
    }
}
