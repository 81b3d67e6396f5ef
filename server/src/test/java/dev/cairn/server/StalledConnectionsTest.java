package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Load on loopback, bounded: 500 connections that send half a request head and then stall are held
 * open while recall keeps answering other clients, each call within a few seconds.
 */
class StalledConnectionsTest {

    static final int STALLED = 500;
    static final Duration MAX_RECALL = Duration.ofSeconds(5);

    @Test
    void recallKeepsAnsweringWhile500ConnectionsStall(@TempDir Path dataDir) throws IOException {
        try (ServerFixture cairn = new ServerFixture(dataDir)) {
            cairn.call("POST", "/v1/namespaces", CairnCalls.ADMIN, "{\"name\":\"load\"}");
            var written =
                    cairn.call(
                            "POST",
                            "/v1/namespaces/load/memories",
                            CairnCalls.ADMIN,
                            "{\"type\":\"fact\",\"content\":\"Deploys freeze on Fridays\"}");
            assertThat(written.status()).as(written.body()).isEqualTo(201);
            List<Socket> stalled = new ArrayList<>();
            try {
                byte[] half =
                        "POST /v1/namespaces/load/recall HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
                                .getBytes(StandardCharsets.US_ASCII);
                for (int i = 0; i < STALLED; i++) {
                    Socket s = new Socket("127.0.0.1", cairn.server.port());
                    s.getOutputStream().write(half);
                    s.getOutputStream().flush();
                    stalled.add(s);
                }
                for (int i = 0; i < 20; i++) {
                    long start = System.nanoTime();
                    var r =
                            cairn.call(
                                    "POST",
                                    "/v1/namespaces/load/recall",
                                    CairnCalls.ADMIN,
                                    "{\"query\":\"when do deploys freeze\"}");
                    Duration took = Duration.ofNanos(System.nanoTime() - start);
                    assertThat(r.status()).as(r.body()).isEqualTo(200);
                    assertThat(r.json().path("memories").size()).isEqualTo(1);
                    assertThat(took).as("recall %d took %s", i, took).isLessThan(MAX_RECALL);
                }
            } finally {
                for (Socket s : stalled) {
                    s.close();
                }
            }
        }
    }
}
