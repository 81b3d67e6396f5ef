package dev.cairn.server.http;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Times every request into {@code cairn_http_requests_seconds}, tagged by method and status class.
 * Paths are not tags: ids in paths would explode the series count.
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
                    .register(registry)
                    .record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }
}
