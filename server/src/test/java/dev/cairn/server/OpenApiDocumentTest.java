package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

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
        Set<String> routes = new TreeSet<>();
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
                                        routes.add(operation(name, path));
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

    @Test
    @SuppressWarnings("unchecked")
    void serversAreRelativeToWhereTheDocumentIsServed() {
        List<Map<String, Object>> servers = (List<Map<String, Object>>) document.get("servers");
        assertThat(servers).extracting(s -> s.get("url")).containsExactly("/");
    }
}
