package dev.cairn.server;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.DirectClient;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Cairn's production routing ({@link CairnRouting} over real {@link ServerComponents} in a data
 * dir) called through Helidon's {@link DirectClient}: the same filters, resources and error answers
 * as the server, without a socket. A {@code @RoutingTest} class opens it in its {@code @SetUpRoute}
 * method, connects the injected client in {@code @BeforeAll} and closes it in {@code @AfterAll}:
 *
 * <pre>{@code
 * @SetUpRoute
 * static void routing(HttpRouting.Builder routing) {
 *     cairn = RoutedCairn.open(dataDir, routing);
 * }
 *
 * @BeforeAll
 * static void start(DirectClient client) {
 *     cairn.connect(client);
 * }
 * }</pre>
 */
final class RoutedCairn implements CairnCalls, AutoCloseable {

    final ServerComponents components;
    private DirectClient client;

    private RoutedCairn(ServerComponents components) {
        this.components = components;
    }

    /** Components with the test admin token over {@code dataDir}, routed onto {@code routing}. */
    static RoutedCairn open(Path dataDir, HttpRouting.Builder routing) {
        return open(ServerSettings.defaults(dataDir).withPort(0).withAdminToken(ADMIN), routing);
    }

    static RoutedCairn open(ServerSettings settings, HttpRouting.Builder routing) {
        ServerComponents components = ServerComponents.open(settings);
        try {
            CairnRouting.register(routing, components);
        } catch (RuntimeException e) {
            components.close();
            throw e;
        }
        return new RoutedCairn(components);
    }

    /** Attaches the client the routing test support made for the routing. */
    RoutedCairn connect(DirectClient directClient) {
        this.client = Objects.requireNonNull(directClient, "directClient");
        return this;
    }

    @Override
    public CairnCalls.Response call(
            String method, String path, String token, String body, String contentType) {
        if (client == null) {
            throw new IllegalStateException("connect the DirectClient in @BeforeAll first");
        }
        int query = path.indexOf('?');
        Http1ClientRequest request =
                client.method(Method.create(method))
                        .path(query < 0 ? path : path.substring(0, query));
        if (query >= 0) {
            // The direct client takes the path and the query apart, as a socket request has them.
            for (String pair : path.substring(query + 1).split("&")) {
                int eq = pair.indexOf('=');
                request.queryParam(
                        decode(eq < 0 ? pair : pair.substring(0, eq)),
                        eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
        if (token != null) {
            request.header(HeaderNames.AUTHORIZATION, "Bearer " + token);
        }
        if (body != null) {
            request.header(HeaderNames.CONTENT_TYPE, contentType);
        }
        try (HttpClientResponse response =
                body == null
                        ? request.request()
                        : request.submit(body.getBytes(StandardCharsets.UTF_8))) {
            return new CairnCalls.Response(
                    response.status().code(),
                    response.headers().first(HeaderNames.CONTENT_TYPE).orElse(""),
                    response.entity().hasEntity() ? response.as(String.class) : "");
        }
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        components.close();
    }
}
