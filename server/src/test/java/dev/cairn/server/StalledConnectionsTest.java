package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.server.http.RequestDeadlines;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stalled clients on loopback, bounded, against a real server: 500 connections that send nothing,
 * half a request line or half their headers, and clients that trickle a byte at a time, are closed
 * once the header timeout passes (not before), while recall keeps answering other clients
 * throughout; 500 that send a whole head and then stall or trickle their body are answered 408 (or,
 * when nobody reads the body, closed) once the body timeout passes; a body sent in time is answered
 * and its connection kept; a kept-alive connection is closed after the idle timeout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StalledConnectionsTest {

    static final int STALLED = 500;
    static final int TRICKLING = 20;
    static final Duration HEADER_TIMEOUT = Duration.ofSeconds(2);
    static final Duration BODY_TIMEOUT = Duration.ofSeconds(2);

    /** Longer than the header timeout, so every stalled head is closed by the header deadline. */
    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(4);

    /** The web server measures idle time on a clock that ticks once a second. */
    static final Duration IDLE_CLOCK = Duration.ofMillis(1_100);

    static final Duration MAX_RECALL = Duration.ofSeconds(5);

    /** The sweep runs every 300 ms; the rest is room for a machine busy with other builds. */
    static final Duration MAX_LATE = Duration.ofSeconds(4);

    static final String RECALL = "/v1/namespaces/load/recall";

    /** Ways to stall before the head is complete; each {@code STALLED / 4} times. */
    static final List<String> HALF_HEADS =
            List.of(
                    "",
                    "POST /v1/namespaces/lo",
                    "POST " + RECALL + " HTTP/1.1\r\nHost: localhost\r\nX-Slow: ",
                    "GET /health HTTP/1.1\r\nHost: localhost\r\n");

    ServerFixture cairn;

    @BeforeAll
    void start(@TempDir Path dataDir) {
        ListenerSettings listener =
                ListenerSettings.defaults()
                        .withHeaderTimeout(HEADER_TIMEOUT)
                        .withBodyTimeout(BODY_TIMEOUT)
                        .withIdleTimeout(IDLE_TIMEOUT);
        cairn =
                new ServerFixture(
                        ServerSettings.defaults(dataDir)
                                .withPort(0)
                                .withAdminToken(CairnCalls.ADMIN)
                                .withListener(listener));
        cairn.call(
                "POST",
                "/v1/namespaces",
                CairnCalls.ADMIN,
                "{\"name\":\"load\",\"recallScope\":\"namespace\"}");
        // the bodies' writes go here, so that recall in "load" keeps finding its one memory
        cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"slow\"}");
        var written =
                cairn.call(
                        "POST",
                        "/v1/namespaces/load/memories",
                        CairnCalls.ADMIN,
                        "{\"type\":\"fact\",\"content\":\"Deploys freeze on Fridays\"}");
        assertThat(written.status()).as(written.body()).isEqualTo(201);
    }

    @AfterAll
    void stop() {
        if (cairn != null) {
            cairn.close();
        }
    }

    @Test
    void stalledAndTricklingConnectionsAreClosedAfterTheHeaderTimeoutWhileRecallAnswers()
            throws Exception {
        LogCapture logs = new LogCapture(RequestDeadlines.class.getName());
        List<LogRecord> logged = logs.records();
        long closedBefore = cairn.server.closedForStalling();
        List<Socket> sockets = new ArrayList<>();
        List<CompletableFuture<Duration>> closedAfter = new ArrayList<>();
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < STALLED + TRICKLING; i++) {
                long opened = System.nanoTime();
                Socket s = new Socket("127.0.0.1", cairn.server.port());
                sockets.add(s);
                OutputStream out = s.getOutputStream();
                if (i < STALLED) {
                    out.write(
                            HALF_HEADS
                                    .get(i % HALF_HEADS.size())
                                    .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } else {
                    threads.submit(() -> trickle(s));
                }
                closedAfter.add(
                        CompletableFuture.supplyAsync(() -> closedAfter(s, opened), threads));
            }

            int recalls = 0;
            long deadline = System.nanoTime() + (HEADER_TIMEOUT.plus(MAX_LATE)).toNanos();
            while (System.nanoTime() < deadline
                    && !closedAfter.stream().allMatch(CompletableFuture::isDone)) {
                recallAnswersQuickly(recalls++);
            }
            CompletableFuture.allOf(closedAfter.toArray(CompletableFuture[]::new))
                    .get(MAX_LATE.toSeconds() + 10, TimeUnit.SECONDS);
            List<Duration> lifetimes = closedAfter.stream().map(CompletableFuture::join).toList();

            assertThat(recalls).as("recalls answered while clients stalled").isPositive();
            assertThat(lifetimes)
                    .as("every stalled connection is closed by the server")
                    .hasSize(STALLED + TRICKLING)
                    .allSatisfy(
                            d ->
                                    assertThat(d)
                                            .isGreaterThanOrEqualTo(HEADER_TIMEOUT.minusMillis(50))
                                            .isLessThan(HEADER_TIMEOUT.plus(MAX_LATE)));
            assertThat(cairn.server.closedForStalling() - closedBefore)
                    .isEqualTo(STALLED + TRICKLING);
            recallAnswersQuickly(recalls);
            // the sweeper logs its line right after closing the sockets the test saw close
            long logDeadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (logged.stream().noneMatch(StalledConnectionsTest::reportsClosing)
                    && System.nanoTime() < logDeadline) {
                Thread.sleep(50);
            }
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
            logs.close();
        }
        assertThat(logged).filteredOn(r -> r.getThrown() != null).isEmpty();
        assertThat(logged).filteredOn(StalledConnectionsTest::reportsClosing).isNotEmpty();
        assertThat(logged.size()).as("log lines for %d closed clients", STALLED).isLessThan(50);
    }

    /** A memory write whose head declares {@code length} body bytes, with or without a token. */
    private static String bodyHead(int length, boolean withToken) {
        return "POST /v1/namespaces/slow/memories HTTP/1.1\r\nHost: localhost\r\n"
                + (withToken ? "Authorization: Bearer " + CairnCalls.ADMIN + "\r\n" : "")
                + "Content-Type: application/json\r\nContent-Length: "
                + length
                + "\r\n\r\n";
    }

    @Test
    void stalledAndTricklingBodiesAreAnswered408OrClosedAfterTheBodyTimeout() throws Exception {
        long timedOutBefore = cairn.server.timedOutBodies();
        String body = "{\"type\":\"fact\",\"content\":\"Deploys need two approvals\"}";
        byte[] half = body.substring(0, body.length() / 2).getBytes(StandardCharsets.US_ASCII);
        List<Socket> sockets = new ArrayList<>();
        List<CompletableFuture<Ending>> endings = new ArrayList<>();
        // a token and half a body; a token and no body; no token (401 at once, the body is
        // left unread and drained); the rest trickle their body a byte every 400 ms
        int stalled = STALLED;
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < stalled + TRICKLING; i++) {
                long opened = System.nanoTime();
                Socket s = new Socket("127.0.0.1", cairn.server.port());
                sockets.add(s);
                OutputStream out = s.getOutputStream();
                boolean withToken = i % 3 != 2;
                out.write(bodyHead(body.length(), withToken).getBytes(StandardCharsets.US_ASCII));
                if (i >= stalled) {
                    out.flush();
                    threads.submit(() -> trickle(s, body.getBytes(StandardCharsets.US_ASCII)));
                } else {
                    if (i % 3 == 0) {
                        out.write(half);
                    }
                    out.flush();
                }
                endings.add(CompletableFuture.supplyAsync(() -> ending(s, opened), threads));
            }
            int recalls = 0;
            long deadline = System.nanoTime() + BODY_TIMEOUT.plus(MAX_LATE).toNanos();
            while (System.nanoTime() < deadline
                    && !endings.stream().allMatch(CompletableFuture::isDone)) {
                recallAnswersQuickly(recalls++);
            }
            CompletableFuture.allOf(endings.toArray(CompletableFuture[]::new))
                    .get(MAX_LATE.toSeconds() + 10, TimeUnit.SECONDS);
            assertThat(recalls).as("recalls answered while bodies stalled").isPositive();
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
        for (int i = 0; i < endings.size(); i++) {
            Ending ending = endings.get(i).join();
            assertThat(ending.closedAfter())
                    .as("connection %d closed after", i)
                    .isGreaterThanOrEqualTo(BODY_TIMEOUT.minusMillis(50))
                    .isLessThan(BODY_TIMEOUT.plus(MAX_LATE));
            if (i % 3 == 2) {
                assertThat(ending.answer().status()).as("connection %d", i).isEqualTo(401);
            } else {
                assertThat(ending.answer().status()).as("connection %d", i).isEqualTo(408);
                assertThat(ending.answer().contentType()).isEqualTo("application/problem+json");
                assertThat(ending.answer().body())
                        .contains("the request body did not arrive within 2 s of the request head");
            }
        }
        assertThat(cairn.server.timedOutBodies() - timedOutBefore).isEqualTo(stalled + TRICKLING);
    }

    @Test
    void aBodySentSlowlyButInTimeIsAnsweredAndItsConnectionKept() throws Exception {
        try (Socket s = new Socket("127.0.0.1", cairn.server.port())) {
            s.setSoTimeout((int) IDLE_TIMEOUT.plus(MAX_LATE).toMillis());
            OutputStream out = s.getOutputStream();
            byte[] body =
                    "{\"type\":\"fact\",\"content\":\"Rollbacks need the release lead\"}"
                            .getBytes(StandardCharsets.US_ASCII);
            out.write(bodyHead(body.length, true).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            int third = body.length / 3;
            for (int part = 0; part < 3; part++) {
                Thread.sleep(BODY_TIMEOUT.toMillis() / 5);
                int from = part * third;
                out.write(body, from, part == 2 ? body.length - from : third);
                out.flush();
            }
            assertThat(RawHttp.readHead(s.getInputStream())).startsWith("HTTP/1.1 201");
            // the body is in: past its timeout (within the idle timeout) the connection is kept
            Thread.sleep(BODY_TIMEOUT.plusMillis(500).toMillis());
            out.write(
                    "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(RawHttp.readHead(s.getInputStream())).startsWith("HTTP/1.1 200");
        }
    }

    /** What a stalled-body connection got: its answer (status 0 for none) and when it closed. */
    record Ending(RawHttp.Answer answer, Duration closedAfter) {}

    /** Reads until the server closes {@code s}: the answer, and how long after {@code since}. */
    private static Ending ending(Socket s, long since) {
        java.io.ByteArrayOutputStream received = new java.io.ByteArrayOutputStream();
        try {
            s.setSoTimeout(60_000);
            InputStream in = s.getInputStream();
            byte[] buffer = new byte[4096];
            int n;
            while ((n = in.read(buffer)) != -1) {
                received.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server kept a stalled body's connection for 60 s", e);
        } catch (IOException e) {
            // reset by the server, or closed by the test: closed either way
        }
        return new Ending(
                RawHttp.parse(received.toByteArray()), Duration.ofNanos(System.nanoTime() - since));
    }

    /** Writes {@code body} a byte every 400 ms until the server closes the connection. */
    private static Void trickle(Socket s, byte[] body) {
        try {
            OutputStream out = s.getOutputStream();
            for (byte b : body) {
                Thread.sleep(400);
                out.write(b);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // closed by the server: what the test waits for
        }
        return null;
    }

    private static boolean reportsClosing(LogRecord r) {
        return r.getMessage() != null && r.getMessage().contains("no complete request head");
    }

    @Test
    void aKeptAliveConnectionServesRequestsAndIsClosedOnceIdle() throws Exception {
        try (Socket s = new Socket("127.0.0.1", cairn.server.port())) {
            s.setSoTimeout((int) (IDLE_TIMEOUT.plus(MAX_LATE).plusSeconds(5)).toMillis());
            byte[] health =
                    "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 3; i++) {
                if (i > 0) {
                    Thread.sleep(IDLE_TIMEOUT.toMillis() / 2);
                }
                s.getOutputStream().write(health);
                s.getOutputStream().flush();
                assertThat(RawHttp.readHead(s.getInputStream())).startsWith("HTTP/1.1 200");
            }
            long idleFrom = System.nanoTime();
            Duration closed = closedAfter(s, idleFrom);
            assertThat(closed)
                    .isGreaterThanOrEqualTo(IDLE_TIMEOUT.minus(IDLE_CLOCK))
                    .isLessThan(IDLE_TIMEOUT.plus(MAX_LATE));
        }
    }

    private void recallAnswersQuickly(int i) {
        long start = System.nanoTime();
        var r =
                cairn.call(
                        "POST", RECALL, CairnCalls.ADMIN, "{\"query\":\"when do deploys freeze\"}");
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().path("memories").size()).isEqualTo(1);
        assertThat(took).as("recall %d took %s", i, took).isLessThan(MAX_RECALL);
    }

    /** One byte of a request head every 400 ms until the server closes the connection. */
    private static Void trickle(Socket s) {
        byte[] head =
                ("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Trickle: " + "a".repeat(1_000))
                        .getBytes(StandardCharsets.US_ASCII);
        try {
            OutputStream out = s.getOutputStream();
            for (byte b : head) {
                out.write(b);
                out.flush();
                Thread.sleep(400);
            }
        } catch (IOException | InterruptedException e) {
            // closed by the server: what the test waits for
        }
        return null;
    }

    /** Blocks until the server closes {@code s}; answers how long after {@code since}. */
    private static Duration closedAfter(Socket s, long since) {
        try {
            s.setSoTimeout(60_000);
            InputStream in = s.getInputStream();
            while (in.read() != -1) {
                // a stalled head gets no answer; drain whatever comes
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server kept a stalled connection open for 60 s", e);
        } catch (IOException e) {
            // reset by the server, or closed by the test: closed either way
        }
        return Duration.ofNanos(System.nanoTime() - since);
    }
}
