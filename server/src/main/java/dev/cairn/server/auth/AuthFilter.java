package dev.cairn.server.auth;

import dev.cairn.server.http.HttpProblem;
import dev.cairn.server.http.Problems;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;
import java.util.Set;

/**
 * Authenticates every request outside the open paths ({@code /} (a pointer, or a redirect to the
 * console), {@code /health}, {@code /metrics}, {@code /openapi}, the console's static files ({@code
 * GET /console/...}), ARK's {@code GET /ark/{ns}/health}) from its {@code Authorization: Bearer}
 * header and registers the {@link Principal} in the request context. ARK's {@code POST
 * /ark/{ns}/conversations} may come without the header (ARK's client sends none there); when it has
 * one, the token is checked as anywhere else, so its creates count against the token's own limit.
 * Authorisation (roles, namespaces) happens in the resources, which know what an operation needs.
 */
public final class AuthFilter implements Filter {

    private static final Set<String> OPEN_PATHS = Set.of("/", "/health", "/metrics", "/openapi");

    /** Where {@link dev.cairn.server.CairnRouting} serves the operator console. */
    public static final String CONSOLE = "/console";

    private final TokenRegistry tokens;

    public AuthFilter(TokenRegistry tokens) {
        this.tokens = tokens;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        String path = req.path().path();
        if (OPEN_PATHS.contains(path)
                || isConsoleFile(req.prologue().method(), path)
                || isArk(path, "/health")) {
            chain.proceed();
            return;
        }
        var header = req.headers().first(HeaderNames.AUTHORIZATION);
        if (header.isEmpty()) {
            if (req.prologue().method() == Method.POST && isArk(path, "/conversations")) {
                // ARK's create: anonymous, rate limited per client address in ArkRoutes
                chain.proceed();
            } else {
                Problems.send(req, res, 401, "missing Authorization: Bearer token");
            }
            return;
        }
        String value = header.get().trim();
        if (value.length() < 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            Problems.send(req, res, 401, "Authorization header must use the Bearer scheme");
            return;
        }
        var token = tokens.authenticate(value.substring(7).trim());
        if (token.isEmpty()) {
            Problems.send(req, res, 401, "unknown or revoked token");
            return;
        }
        req.context().register(new Principal(token.get()));
        chain.proceed();
    }

    /**
     * Whether the request reads one of the console's static files: the page must load without a
     * token because it is where the operator types one; every API call it then makes carries it.
     */
    private static boolean isConsoleFile(Method method, String path) {
        return (method == Method.GET || method == Method.HEAD)
                && (path.equals(CONSOLE) || path.startsWith(CONSOLE + "/"));
    }

    /**
     * Whether {@code path} is {@code /ark/{ns}{suffix}}. ARK's client sends no headers on its
     * health probe nor on conversation create (which only generates an id and stores nothing; it is
     * rate limited in ArkRoutes instead).
     */
    private static boolean isArk(String path, String suffix) {
        return path.startsWith("/ark/")
                && path.endsWith(suffix)
                && path.length() > 5 + suffix.length()
                && path.indexOf('/', 5) == path.length() - suffix.length();
    }

    /** The caller of a request that passed this filter. */
    public static Principal principal(ServerRequest req) {
        return req.context()
                .get(Principal.class)
                .orElseThrow(() -> HttpProblem.unauthorized("not authenticated"));
    }
}
