package dev.cairn.server.api;

import dev.cairn.api.body.TokenBody;
import dev.cairn.api.view.ListAnswer;
import dev.cairn.server.api.view.TokenView;
import dev.cairn.server.auth.ApiToken;
import dev.cairn.server.auth.AuthFilter;
import dev.cairn.server.auth.Role;
import dev.cairn.server.auth.TokenRegistry;
import dev.cairn.server.http.Fields;
import dev.cairn.server.http.Json;
import dev.cairn.server.http.RequestBodies;
import dev.cairn.server.http.Routes;
import dev.cairn.store.Namespace;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.EnumSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * {@code /v1/tokens} (admin): the secret is in the creation answer and nowhere else; {@code GET
 * /v1/token} (any token): the caller's own name, roles and namespaces, so a client such as the
 * console offers only what the token allows.
 */
public final class TokenRoutes implements HttpService {

    private final TokenRegistry tokens;
    private final long maxBodyBytes;

    public TokenRoutes(TokenRegistry tokens, long maxBodyBytes) {
        this.tokens = tokens;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/v1/tokens", this::create)
                .get("/v1/tokens", this::list)
                .delete("/v1/tokens/{name}", this::delete)
                .get("/v1/token", this::self);
        Routes.methodNotAllowed(rules, "/v1/tokens", "/v1/tokens/{name}", "/v1/token");
    }

    private void create(ServerRequest req, ServerResponse res) {
        AuthFilter.principal(req).requireEverywhere(Role.ADMIN);
        TokenBody body = RequestBodies.read(req, maxBodyBytes, TokenBody.class);
        String name = Fields.required(body.name(), "name");
        Set<Role> roles = EnumSet.noneOf(Role.class);
        for (String role : Fields.requiredList(body.roles(), "roles")) {
            roles.add(Role.parse(role));
        }
        List<String> namespaces = Fields.requiredList(body.namespaces(), "namespaces");
        for (String ns : namespaces) {
            if (!ns.equals(ApiToken.ALL_NAMESPACES)) {
                Namespace.requireValidName(ns);
            }
        }
        String secret = tokens.create(name, roles, namespaces);
        Json.send(res, 201, TokenView.created(tokens.authenticate(secret).orElseThrow(), secret));
    }

    private void list(ServerRequest req, ServerResponse res) {
        AuthFilter.principal(req).requireEverywhere(Role.ADMIN);
        List<ApiToken> all = tokens.list();
        Json.send(res, 200, ListAnswer.all(all.stream().map(TokenView::of).toList()));
    }

    private void self(ServerRequest req, ServerResponse res) {
        Json.send(res, 200, TokenView.of(AuthFilter.principal(req).token()));
    }

    private void delete(ServerRequest req, ServerResponse res) {
        AuthFilter.principal(req).requireEverywhere(Role.ADMIN);
        String name = req.path().pathParameters().get("name");
        if (!tokens.delete(name)) {
            throw new NoSuchElementException("token '" + name + "' does not exist");
        }
        res.status(204).send();
    }
}
