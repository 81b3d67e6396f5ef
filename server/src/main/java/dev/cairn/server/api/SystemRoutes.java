package dev.cairn.server.api;

import dev.cairn.api.view.HealthAnswer;
import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.server.api.view.RootPointer;
import dev.cairn.server.auth.AuthFilter;
import dev.cairn.server.http.Json;
import dev.cairn.store.Store;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The open endpoints: {@code /} (a pointer to the API and the console), {@code /health} (the store
 * check and the embedding model's id and precision), {@code /metrics} (Prometheus text), {@code
 * /openapi}.
 */
public final class SystemRoutes implements HttpService {

    private static final System.Logger LOG = System.getLogger(SystemRoutes.class.getName());

    /**
     * The health check: 200 UP once retrieve and recall answer at full quality, 503 while the store
     * does not answer; open, without a token. What container and Kubernetes probes ask.
     */
    public static final String HEALTH = "/health";

    private final Store store;
    private final HealthAnswer.Model model;
    private final PrometheusMeterRegistry metrics;
    private final byte[] openApi;

    public SystemRoutes(Store store, EmbeddingModel model, PrometheusMeterRegistry metrics) {
        this.store = store;
        this.model = new HealthAnswer.Model(model.id(), model.precision());
        this.metrics = metrics;
        this.openApi = resource("openapi.yaml");
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", SystemRoutes::root)
                .get(HEALTH, this::health)
                .head(HEALTH, this::health)
                .get("/metrics", this::metrics)
                .get("/openapi", this::openApi);
    }

    /** What {@code GET /} answers an API client. */
    static final RootPointer POINTER = RootPointer.of(AuthFilter.CONSOLE + "/");

    /**
     * {@code GET /}, open like {@code /health}: a browser (its {@code Accept} names {@code
     * text/html}) is sent to the console with a 303; anything else gets {@link #POINTER}, which
     * names paths only, nothing about this server or its data.
     */
    private static void root(ServerRequest req, ServerResponse res) {
        boolean browser =
                String.join(",", req.headers().values(HeaderNames.ACCEPT))
                        .toLowerCase(Locale.ROOT)
                        .contains("text/html");
        if (browser) {
            res.status(303).header(HeaderNames.LOCATION, POINTER.console()).send();
        } else {
            Json.send(res, 200, POINTER);
        }
    }

    private void health(ServerRequest req, ServerResponse res) {
        String kind = store.kind().name().toLowerCase(Locale.ROOT);
        HealthAnswer.StoreCheck check;
        try {
            store.ping();
            long last = store.lastChangeSeq();
            Map<String, Long> lag = new TreeMap<>();
            store.changeLog()
                    .positions()
                    .forEach((name, seq) -> lag.put(name, Math.max(0, last - seq)));
            check = new HealthAnswer.StoreCheck(kind, null, "UP", last, lag);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "health check: store is down", e);
            check = new HealthAnswer.StoreCheck(kind, "store does not answer", "DOWN", null, null);
        }
        Json.send(
                res,
                check.reason() == null ? 200 : 503,
                new HealthAnswer(check.status(), Map.of("store", check), model));
    }

    private void metrics(ServerRequest req, ServerResponse res) {
        res.header(HeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
        res.send(metrics.scrape());
    }

    private void openApi(ServerRequest req, ServerResponse res) {
        res.header(HeaderNames.CONTENT_TYPE, "application/yaml");
        res.send(openApi);
    }

    private static byte[] resource(String name) {
        try (InputStream in = SystemRoutes.class.getResourceAsStream("/" + name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the server jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
