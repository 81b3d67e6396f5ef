package dev.cairn.server.http;

import io.helidon.http.Method;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;

/**
 * Times every request into {@code cairn_http_requests_seconds}, tagged by method, status class and
 * operation ({@code retrieve}, {@code recall}, {@code judge}, {@code ingest}, {@code extract} or
 * {@code other}: the console's health charts draw these). Paths are not tags: ids in paths would
 * explode the series count, so the operation is one of that fixed set.
 */
public final class MetricsFilter implements Filter {

    private final MeterRegistry registry;

    public MetricsFilter(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        long start = System.nanoTime();
        try {
            chain.proceed();
        } finally {
            Timer.builder("cairn.http.requests")
                    .tag("method", req.prologue().method().text())
                    .tag("status", (res.status().code() / 100) + "xx")
                    .tag("operation", operation(req.prologue().method(), req.path().path()))
                    .register(registry)
                    .record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }

    /** The operation a request performs: {@code POST /v1/namespaces/{ns}/{name}}, or other. */
    static String operation(Method method, String path) {
        if (method != Method.POST || !path.startsWith(NAMESPACES)) {
            return OTHER;
        }
        int slash = path.indexOf('/', NAMESPACES.length());
        return slash < 0 ? OTHER : OPERATIONS.getOrDefault(path.substring(slash + 1), OTHER);
    }

    private static final String NAMESPACES = "/v1/namespaces/";
    private static final String OTHER = "other";
    private static final Map<String, String> OPERATIONS =
            Map.of(
                    "retrieve", "retrieve",
                    "recall", "recall",
                    "judge", "judge",
                    "documents", "ingest",
                    "extract", "extract");
}
