package dev.cairn.server.http;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Times every request into {@code cairn_http_requests_seconds}, tagged by method and status class,
 * and each {@link Operation} into the histogram {@code cairn_operation_seconds} tagged by operation
 * and status class. Counts the answers an operator alerts on: {@code cairn_answers_partial_total}
 * (a signal missed its deadline) and {@code cairn_writes_blocked_total} (write safety refused the
 * write), both by operation; routes mark them with {@link #markPartial} and {@link #markBlocked}.
 * Paths are not tags: ids in paths would explode the series count. Thread-safe.
 */
public final class MetricsFilter implements Filter {

    /** Bucket bounds of the operation histograms: from a cached recall to a slow ingest. */
    static final Duration[] BUCKETS = {
        Duration.ofMillis(5),
        Duration.ofMillis(10),
        Duration.ofMillis(25),
        Duration.ofMillis(50),
        Duration.ofMillis(100),
        Duration.ofMillis(250),
        Duration.ofMillis(500),
        Duration.ofSeconds(1),
        Duration.ofMillis(2500),
        Duration.ofSeconds(5),
        Duration.ofSeconds(10),
        Duration.ofSeconds(30)
    };

    private static final String PARTIAL = "cairn.answer.partial";
    private static final String BLOCKED = "cairn.write.blocked";

    private final MeterRegistry registry;

    public MetricsFilter(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Marks this request's answer as partial, for {@code cairn_answers_partial_total}. */
    public static void markPartial(ServerRequest req) {
        req.context().register(PARTIAL, Boolean.TRUE);
    }

    /** Marks this request's write as blocked by safety, for {@code cairn_writes_blocked_total}. */
    public static void markBlocked(ServerRequest req) {
        req.context().register(BLOCKED, Boolean.TRUE);
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        long start = System.nanoTime();
        try {
            chain.proceed();
        } finally {
            long took = System.nanoTime() - start;
            String method = req.prologue().method().text();
            String status = (res.status().code() / 100) + "xx";
            Timer.builder("cairn.http.requests")
                    .tag("method", method)
                    .tag("status", status)
                    .register(registry)
                    .record(took, TimeUnit.NANOSECONDS);
            Optional<Operation> op = Operation.of(method, req.path().path());
            op.ifPresent(o -> record(req, o, status, took));
        }
    }

    private void record(RoutingRequest req, Operation op, String status, long took) {
        Timer.builder("cairn.operation")
                .description("latency of each operation an agent runtime calls")
                .tag("operation", op.tag())
                .tag("status", status)
                .serviceLevelObjectives(BUCKETS)
                .register(registry)
                .record(took, TimeUnit.NANOSECONDS);
        if (marked(req, PARTIAL)) {
            count("cairn.answers.partial", "answers cut short by a deadline", op);
        }
        if (marked(req, BLOCKED)) {
            count("cairn.writes.blocked", "writes refused by write safety", op);
        }
    }

    private static boolean marked(RoutingRequest req, String mark) {
        return req.context().get(mark, Boolean.class).orElse(false);
    }

    private void count(String name, String description, Operation op) {
        Counter.builder(name)
                .description(description)
                .tag("operation", op.tag())
                .register(registry)
                .increment();
    }
}
