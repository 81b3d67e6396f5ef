package dev.cairn.server.http;

import io.helidon.http.Method;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRoute;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The query parameters a route takes, checked as strictly as bodies are bound ({@link
 * RequestBodies}): a parameter the route does not declare is a 400 naming it, the ones it knows and
 * the closest of them ({@link NearestName}), in the error envelope of the route's mount ({@link
 * ErrorEnvelope}). So {@code ?offset=5} is refused instead of answering page 1 as if it had been
 * read.
 *
 * <p>One mechanism for every route: {@link #strict(HttpService)} wraps a resource so that each
 * route it registers with a method and a path is checked; a route takes no query parameters unless
 * its handler is declared with {@link #accept(String...)}:
 *
 * <pre>{@code
 * rules.get(BASE + "/documents", PAGE.and("q").to(this::listDocuments))
 * }</pre>
 *
 * A route added later is strict without anyone remembering to make it so. {@code any} routes (the
 * 405 and 404 answers of {@link Routes}) stay unchecked: the method or the path is the problem
 * there. Stateless, thread-safe.
 */
public final class QueryParameters {

    private final Set<String> names;

    private QueryParameters(Set<String> names) {
        this.names = Set.copyOf(names);
    }

    /** A route that takes no query parameters: what every undeclared route gets. */
    public static final QueryParameters NONE = new QueryParameters(Set.of());

    /** {@code limit} and {@code cursor}, as {@link Paging} reads them. */
    public static final QueryParameters PAGE = accept("limit", "cursor");

    /** A route that takes these query parameters. */
    public static QueryParameters accept(String... names) {
        return new QueryParameters(Set.of(names));
    }

    /** These parameters and {@code more}. */
    public QueryParameters and(String... more) {
        Set<String> all = new TreeSet<>(names);
        all.addAll(Arrays.asList(more));
        return new QueryParameters(all);
    }

    /** The declared names. */
    public Set<String> names() {
        return names;
    }

    /** {@code handler}, declared to take these parameters. */
    public Handler to(Handler handler) {
        return new Declared(this, handler);
    }

    /**
     * A handler with its declared query parameters. Before the route is registered its method and
     * path are not known, so it checks nothing itself; {@link #strict} registers it as a {@link
     * Checked} route.
     */
    public record Declared(QueryParameters parameters, Handler handler) implements Handler {
        @Override
        public void handle(ServerRequest req, ServerResponse res) throws Exception {
            handler.handle(req, res);
        }
    }

    /** A registered route that refuses undeclared query parameters, then runs its handler. */
    public record Checked(Method method, String path, QueryParameters parameters, Handler handler)
            implements Handler {
        @Override
        public void handle(ServerRequest req, ServerResponse res) throws Exception {
            parameters.check(method, path, req);
            handler.handle(req, res);
        }
    }

    private void check(Method method, String path, ServerRequest req) {
        for (String name : new TreeSet<>(req.query().names())) {
            if (!names.contains(name)) {
                String known =
                        names.isEmpty()
                                ? "it takes none"
                                : "known: "
                                        + names.stream().sorted().collect(Collectors.joining(", "));
                throw new HttpProblem(
                        400,
                        ErrorEnvelope.VALIDATION_ERROR,
                        "unknown query parameter '"
                                + LogText.escape(name)
                                + "' for "
                                + method.text()
                                + " "
                                + path
                                + NearestName.suggestion(name, names)
                                + "; "
                                + known);
            }
        }
    }

    /**
     * A boolean query parameter: absent or empty is false, otherwise {@code true} or {@code false}
     * (any case); anything else is a 400 naming it.
     */
    public static boolean flag(ServerRequest req, String name) {
        String raw = req.query().first(name).orElse("").strip();
        if (raw.isEmpty() || raw.equalsIgnoreCase("false")) {
            return false;
        }
        if (raw.equalsIgnoreCase("true")) {
            return true;
        }
        throw new IllegalArgumentException(
                "query parameter '"
                        + name
                        + "' must be true or false, got '"
                        + LogText.escape(raw)
                        + "'");
    }

    /** {@code service} with every route it registers checked (see the class comment). */
    public static HttpService strict(HttpService service) {
        return new StrictService(service);
    }

    private record StrictService(HttpService service) implements HttpService {
        @Override
        public void routing(HttpRules rules) {
            service.routing(new StrictRules(rules));
        }

        @Override
        public void beforeStart() {
            service.beforeStart();
        }

        @Override
        public void afterStop() {
            service.afterStop();
        }
    }

    /**
     * Rules that register every method-and-path route as {@link Checked}; Helidon's {@code get},
     * {@code post} and the others all come through {@link #route(Method, String, Handler)}.
     */
    private record StrictRules(HttpRules rules) implements HttpRules {
        @Override
        public HttpRules register(HttpService... services) {
            rules.register(
                    Arrays.stream(services)
                            .map(QueryParameters::strict)
                            .toArray(HttpService[]::new));
            return this;
        }

        @Override
        public HttpRules register(String pathPattern, HttpService... services) {
            rules.register(
                    pathPattern,
                    Arrays.stream(services)
                            .map(QueryParameters::strict)
                            .toArray(HttpService[]::new));
            return this;
        }

        @Override
        public HttpRules route(HttpRoute route) {
            rules.route(route);
            return this;
        }

        @Override
        public HttpRules route(Method method, String pathPattern, Handler handler) {
            QueryParameters declared =
                    handler instanceof Declared d ? d.parameters() : QueryParameters.NONE;
            Handler inner = handler instanceof Declared d ? d.handler() : handler;
            rules.route(method, pathPattern, new Checked(method, pathPattern, declared, inner));
            return this;
        }
    }
}
