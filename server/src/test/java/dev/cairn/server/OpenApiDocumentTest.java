package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.server.http.QueryParameters;
import io.helidon.http.Method;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.HttpService;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code /openapi} is checked against the code: the routes {@link CairnRouting} registers are
 * recorded (every service's {@code routing} runs against a recording {@link HttpRouting.Builder})
 * and each must be an operation of the document, with its method; the document names no route the
 * server lacks.
 */
class OpenApiDocumentTest {

    private static final Set<String> METHODS = Set.of("get", "post", "put", "delete", "patch");

    @TempDir static Path dataDir;
    static ServerComponents components;
    static Map<String, Object> document;

    @BeforeAll
    static void open() throws IOException {
        components =
                ServerComponents.open(
                        ServerSettings.defaults(dataDir)
                                .withPort(0)
                                .withAdminToken(CairnCalls.ADMIN));
        try (InputStream in = OpenApiDocumentTest.class.getResourceAsStream("/openapi.yaml")) {
            document = new Yaml().load(in);
        }
    }

    @AfterAll
    static void close() {
        components.close();
    }

    /** "POST /v1/namespaces/{}/retrieve": path parameters are compared by position only. */
    private static String operation(String method, String path) {
        return method.toUpperCase(Locale.ROOT) + " " + path.replaceAll("\\{[^}]*}", "{}");
    }

    /** Every route the production routing registers, as {@link #operation} strings. */
    static Set<String> routes() {
        return queryParameters().keySet();
    }

    /**
     * Every route the production routing registers, as {@link #operation} strings, with the query
     * parameters it takes; a route registered without {@link QueryParameters} strictness maps to
     * {@code null}.
     */
    static Map<String, Set<String>> queryParameters() {
        Map<String, Set<String>> routes = new TreeMap<>();
        Object[] self = new Object[1];
        HttpRouting.Builder recorder =
                (HttpRouting.Builder)
                        Proxy.newProxyInstance(
                                HttpRouting.Builder.class.getClassLoader(),
                                new Class<?>[] {HttpRouting.Builder.class},
                                (proxy, method, args) -> {
                                    String name = method.getName();
                                    if (METHODS.contains(name)
                                            && args != null
                                            && args.length > 0
                                            && args[0] instanceof String path) {
                                        routes.put(operation(name, path), null);
                                    } else if (name.equals("route")
                                            && args != null
                                            && args.length == 3
                                            && args[0] instanceof Method verb
                                            && METHODS.contains(
                                                    verb.text().toLowerCase(Locale.ROOT))
                                            && args[1] instanceof String path) {
                                        // what QueryParameters.strict registers for get, post...
                                        routes.put(
                                                operation(verb.text(), path),
                                                args[2] instanceof QueryParameters.Checked checked
                                                        ? checked.parameters().names()
                                                        : null);
                                    } else if (name.equals("register")
                                            && args != null
                                            && args[0] instanceof HttpService[] services) {
                                        for (HttpService s : services) {
                                            s.routing((HttpRouting.Builder) self[0]);
                                        }
                                    }
                                    return method.getReturnType().isInstance(proxy) ? proxy : null;
                                });
        self[0] = recorder;
        CairnRouting.register(recorder, components);
        return routes;
    }

    @SuppressWarnings("unchecked")
    static Set<String> documented() {
        Set<String> ops = new TreeSet<>();
        Map<String, Map<String, Object>> paths =
                (Map<String, Map<String, Object>>) document.get("paths");
        paths.forEach(
                (path, item) ->
                        item.keySet().stream()
                                .filter(METHODS::contains)
                                .forEach(m -> ops.add(operation(m, path))));
        return ops;
    }

    @Test
    void everyRouteIsInTheDocumentAndNothingElseIs() {
        Set<String> routes = routes();
        assertThat(routes)
                .as("the recorder saw the routing")
                .contains("POST /v1/namespaces/{}/retrieve");
        assertThat(documented()).as("routes missing from openapi.yaml").containsAll(routes);
        assertThat(routes)
                .as("operations in openapi.yaml the server lacks")
                .containsAll(documented());
    }

    /** The {@code in: query} parameters of each documented operation, its path's included. */
    @SuppressWarnings("unchecked")
    static Map<String, Set<String>> documentedQueryParameters() {
        Map<String, Set<String>> ops = new TreeMap<>();
        Map<String, Map<String, Object>> paths =
                (Map<String, Map<String, Object>>) document.get("paths");
        paths.forEach(
                (path, item) -> {
                    Set<String> shared = queryNames(item.get("parameters"));
                    item.forEach(
                            (method, operation) -> {
                                if (METHODS.contains(method)) {
                                    Set<String> names = new TreeSet<>(shared);
                                    names.addAll(
                                            queryNames(
                                                    ((Map<String, Object>) operation)
                                                            .get("parameters")));
                                    ops.put(operation(method, path), names);
                                }
                            });
                });
        return ops;
    }

    @SuppressWarnings("unchecked")
    private static Set<String> queryNames(Object parameters) {
        Set<String> names = new TreeSet<>();
        if (parameters instanceof List<?> list) {
            for (Object p : list) {
                Map<String, Object> parameter = (Map<String, Object>) p;
                if ("query".equals(parameter.get("in"))) {
                    names.add((String) parameter.get("name"));
                }
            }
        }
        return names;
    }

    @Test
    void everyRouteTakesExactlyTheQueryParametersTheDocumentLists() {
        Map<String, Set<String>> declared = queryParameters();
        assertThat(declared)
                .as("routes registered without QueryParameters.strict")
                .allSatisfy((route, names) -> assertThat(names).as(route).isNotNull());
        assertThat(declared)
                .as("spot check: the documents list pages and filters by title")
                .containsEntry("GET /v1/namespaces/{}/documents", Set.of("q", "limit", "cursor"));
        Map<String, Set<String>> documented = documentedQueryParameters();
        declared.forEach(
                (route, names) ->
                        assertThat(new TreeSet<>(names))
                                .as(
                                        "query parameters of %s: the route's against openapi.yaml's",
                                        route)
                                .isEqualTo(documented.get(route)));
    }

    @Test
    @SuppressWarnings("unchecked")
    void serversAreRelativeToWhereTheDocumentIsServed() {
        List<Map<String, Object>> servers = (List<Map<String, Object>>) document.get("servers");
        assertThat(servers).extracting(s -> s.get("url")).containsExactly("/");
    }
}
