package dev.cairn.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cairn.api.body.DocumentBody;
import dev.cairn.api.body.NamespaceBody;
import dev.cairn.api.view.DocumentView;
import dev.cairn.api.view.HealthAnswer;
import dev.cairn.api.view.NamespaceView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client's HTTP behaviour against a local HTTP server that answers from a script (503, 429,
 * then 200): which calls are sent again and when, error bodies that are not problem+json, the base
 * URI's path. The transport is under test here, not Cairn (CairnClientEndToEndTest runs the real
 * server).
 */
class TransportTest {

    static final String NAMESPACE =
            "{\"name\":\"ops\",\"description\":\"\",\"createdAt\":\"2026-01-01T00:00:00Z\","
                    + "\"recallScope\":\"user\"}";
    static final String UNAVAILABLE =
            "{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
                    + "\"detail\":\"store is DOWN\"}";

    /** One scripted answer. */
    record Answer(int status, String retryAfter, String contentType, String body) {}

    HttpServer http;
    final Deque<Answer> script = new ArrayDeque<>();
    final List<String> requests = Collections.synchronizedList(new ArrayList<>());
    final List<Long> arrivals = Collections.synchronizedList(new ArrayList<>());
    CairnClient client;

    @BeforeEach
    void start() throws IOException {
        http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        http.createContext("/", this::answer);
        http.start();
        client =
                CairnClient.builder(URI.create("http://127.0.0.1:" + http.getAddress().getPort()))
                        .token("t")
                        .retries(
                                new RetryPolicy(
                                        3,
                                        Duration.ofMillis(50),
                                        Duration.ofMillis(200),
                                        Duration.ofSeconds(2)))
                        .build();
    }

    @AfterEach
    void stop() {
        client.close();
        http.stop(0);
    }

    private void answer(HttpExchange exchange) throws IOException {
        requests.add(
                exchange.getRequestMethod()
                        + " "
                        + exchange.getRequestURI()
                        + " "
                        + exchange.getRequestHeaders().getFirst("Authorization"));
        arrivals.add(System.nanoTime());
        exchange.getRequestBody().readAllBytes();
        Answer a;
        synchronized (script) {
            a =
                    script.isEmpty()
                            ? new Answer(500, null, "text/plain", "script ran out")
                            : script.poll();
        }
        byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", a.contentType());
        if (a.retryAfter() != null) {
            exchange.getResponseHeaders().add("Retry-After", a.retryAfter());
        }
        exchange.sendResponseHeaders(a.status(), body.length == 0 ? -1 : body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    private void then(int status, String retryAfter, String body) {
        script.add(
                new Answer(
                        status,
                        retryAfter,
                        status < 300 ? "application/json" : "application/problem+json",
                        body));
    }

    @Test
    void getIsRetriedAfter503AndAnswersTheSecondAttempt() {
        then(503, null, UNAVAILABLE);
        then(200, null, NAMESPACE);

        NamespaceView ns = client.getNamespace("ops");

        assertThat(ns.name()).isEqualTo("ops");
        assertThat(requests)
                .containsExactly(
                        "GET /v1/namespaces/ops Bearer t", "GET /v1/namespaces/ops Bearer t");
        assertThat(Duration.ofNanos(arrivals.get(1) - arrivals.get(0)))
                .as("the first backoff")
                .isGreaterThanOrEqualTo(Duration.ofMillis(50));
    }

    @Test
    void nonIdempotentPostIsNotRetriedAfter503() {
        then(503, "0", UNAVAILABLE);
        then(201, null, NAMESPACE);

        CairnException e =
                catchThrowableOfType(
                        CairnException.class,
                        () -> client.createNamespace(new NamespaceBody("ops", "", null)));

        assertThat(e.status()).isEqualTo(503);
        assertThat(e.title()).isEqualTo("Service Unavailable");
        assertThat(e.detail()).isEqualTo("store is DOWN");
        assertThat(requests).containsExactly("POST /v1/namespaces Bearer t");
    }

    @Test
    void retryAfterIsHonouredOn429() {
        then(429, "1", "{\"title\":\"Too Many Requests\",\"status\":429}");
        then(200, null, NAMESPACE);

        client.getNamespace("ops");

        assertThat(requests).hasSize(2);
        assertThat(Duration.ofNanos(arrivals.get(1) - arrivals.get(0)))
                .as("Retry-After: 1, not the 50 ms backoff")
                .isGreaterThanOrEqualTo(Duration.ofMillis(950));
    }

    @Test
    void aRetryAfterLongerThanTheLimitIsNotWaitedFor() {
        then(503, "3600", UNAVAILABLE);
        then(200, null, NAMESPACE);

        CairnException e =
                catchThrowableOfType(CairnException.class, () -> client.getNamespace("ops"));

        assertThat(e.status()).isEqualTo(503);
        assertThat(requests).hasSize(1);
    }

    @Test
    void attemptsStopAtTheLimitWithTheLastError() {
        then(503, "0", UNAVAILABLE);
        then(503, "0", UNAVAILABLE);
        then(503, "0", "{\"title\":\"Service Unavailable\",\"status\":503,\"detail\":\"third\"}");
        then(200, null, NAMESPACE);

        CairnException e =
                catchThrowableOfType(CairnException.class, () -> client.getNamespace("ops"));

        assertThat(e.detail()).isEqualTo("third");
        assertThat(requests).hasSize(3);
    }

    @Test
    void otherErrorsAreNotRetried() {
        then(404, null, "{\"title\":\"Not Found\",\"status\":404,\"detail\":\"no namespace\"}");
        then(200, null, NAMESPACE);

        assertThat(
                        catchThrowableOfType(CairnException.class, () -> client.getNamespace("ops"))
                                .status())
                .isEqualTo(404);
        assertThat(requests).hasSize(1);
    }

    @Test
    void ingestOfADocumentWithAnIdThatSkipsUnchangedIsRetried() {
        String ingested = "{\"id\":\"a\",\"version\":1,\"chunks\":2,\"unchanged\":true}";
        then(503, "0", UNAVAILABLE);
        then(200, null, ingested);
        DocumentBody withId = new DocumentBody("a", null, "text", "text", null, null, null, null);

        DocumentView.Ingested answer = client.namespace("ops").ingest(withId, true);

        assertThat(answer).isEqualTo(new DocumentView.Ingested("a", 1, 2, true));
        assertThat(requests)
                .containsExactly(
                        "POST /v1/namespaces/ops/documents?skipUnchanged=true Bearer t",
                        "POST /v1/namespaces/ops/documents?skipUnchanged=true Bearer t");

        requests.clear();
        then(503, "0", UNAVAILABLE);
        then(200, null, ingested);
        DocumentBody withoutId =
                new DocumentBody(null, null, "text", "text", null, null, null, null);
        assertThat(
                        catchThrowableOfType(
                                        CairnException.class,
                                        () -> client.namespace("ops").ingest(withoutId, true))
                                .status())
                .as("without an id a second POST is a second document")
                .isEqualTo(503);
        assertThat(requests).hasSize(1);
    }

    @Test
    void retryAfterAsAnHttpDateIsHonoured() {
        String inTwoSeconds =
                DateTimeFormatter.RFC_1123_DATE_TIME.format(
                        ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(2));
        then(503, inTwoSeconds, UNAVAILABLE);
        then(200, null, NAMESPACE);

        client.getNamespace("ops");

        assertThat(requests).hasSize(2);
        assertThat(Duration.ofNanos(arrivals.get(1) - arrivals.get(0)))
                .as("until %s (whole seconds), not the 50 ms backoff", inTwoSeconds)
                .isGreaterThanOrEqualTo(Duration.ofMillis(900));
    }

    @Test
    void theBaseUrisPathIsKeptAndTheNamespaceEncoded() {
        then(200, null, NAMESPACE);
        try (CairnClient behindProxy =
                CairnClient.builder(
                                URI.create(
                                        "http://127.0.0.1:"
                                                + http.getAddress().getPort()
                                                + "/cairn/"))
                        .build()) {
            behindProxy.getNamespace("ops team");
        }
        assertThat(requests).containsExactly("GET /cairn/v1/namespaces/ops%20team null");
    }

    @Test
    void aBaseUriThatIsNotHttpIsRefusedByName() {
        assertThat(
                        catchThrowableOfType(
                                IllegalArgumentException.class,
                                () -> CairnClient.builder(URI.create("ftp://example.org"))))
                .hasMessage("illegal baseUri: ftp://example.org, must be http(s)://host[:port]");
    }

    @Test
    void healthOfAServerThatIsDownIsAnAnswerAskedOnce() {
        script.add(
                new Answer(
                        503,
                        null,
                        "application/json",
                        "{\"status\":\"DOWN\",\"checks\":{\"store\":{\"kind\":\"postgresql\","
                                + "\"reason\":\"store does not answer\",\"status\":\"DOWN\"}},"
                                + "\"model\":{\"id\":\"bge-small-en-v1.5\",\"precision\":\"float32\"}}"));
        then(200, null, "{}");

        HealthAnswer health = client.health();

        assertThat(health.up()).isFalse();
        assertThat(health.checks().get("store").reason()).isEqualTo("store does not answer");
        assertThat(requests).containsExactly("GET /health Bearer t");
    }

    @Test
    void anErrorThatIsNotProblemJsonKeepsItsStatusAndBody() {
        script.add(new Answer(502, null, "text/html", "<html>bad gateway</html>"));

        CairnException e =
                catchThrowableOfType(
                        CairnException.class,
                        () -> client.createNamespace(new NamespaceBody("ops", "", null)));

        assertThat(e.status()).isEqualTo(502);
        assertThat(e.title()).isEqualTo("HTTP 502");
        assertThat(e.detail()).isEqualTo("<html>bad gateway</html>");
        assertThat(e.problem().isEmpty()).isTrue();
    }

    @Test
    void aRefusedConnectionIsRetriedForAGetAndThenReported() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (CairnClient nowhere =
                CairnClient.builder(URI.create("http://127.0.0.1:" + closedPort))
                        .retries(
                                new RetryPolicy(
                                        3,
                                        Duration.ofMillis(100),
                                        Duration.ofMillis(100),
                                        Duration.ZERO))
                        .build()) {
            long start = System.nanoTime();
            UncheckedIOException e =
                    catchThrowableOfType(
                            UncheckedIOException.class, () -> nowhere.getNamespace("ops"));
            assertThat(e).hasMessageContaining("after 3 attempt(s)");
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("two waits of 100 ms between three attempts")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(200));
        }
    }
}
