package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.helidon.common.tls.Tls;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} with TLS from configuration, end to end: a self-signed certificate made at test
 * time with the JDK's {@code keytool}, a real server on a random port, and a JDK HTTP client that
 * trusts exactly that certificate. Plain HTTP to the TLS port fails; a bad key file or password
 * stops {@code cairn serve} with one line and exit 2.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsServeTest {

    /** Short, so a kept-alive connection outlives it within the test. */
    static final Duration HEADER_TIMEOUT = Duration.ofSeconds(1);

    Path dir;
    TestCertificate certificate;
    ServerFixture cairn;
    HttpClient https;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        dir = tmp;
        certificate = TestCertificate.make(dir);
        https = HttpClient.newBuilder().sslContext(certificate.trustingOnlyThis()).build();
        cairn =
                new ServerFixture(
                        ServerSettings.defaults(dir.resolve("data"))
                                .withPort(0)
                                .withAdminToken(CairnCalls.ADMIN)
                                .withListener(
                                        ListenerSettings.defaults()
                                                .withHeaderTimeout(HEADER_TIMEOUT)
                                                .withTls(
                                                        new TlsSettings.Keystore(
                                                                certificate.keystore(),
                                                                certificate.password()))));
    }

    @AfterAll
    void stop() {
        if (cairn != null) {
            cairn.close();
        }
    }

    @Test
    void healthAndTheApiAnswerOverHttps() throws Exception {
        assertThat(cairn.server.baseUri().getScheme()).isEqualTo("https");
        HttpResponse<String> health = send("GET", "/health", null);
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.sslSession()).isPresent();
        assertThat(health.sslSession().orElseThrow().getPeerCertificates()[0])
                .isEqualTo(certificate.certificate());

        assertThat(
                        send(
                                        "POST",
                                        "/v1/namespaces",
                                        "{\"name\":\"tls\",\"recallScope\":\"namespace\"}")
                                .statusCode())
                .isEqualTo(201);
        var written =
                send(
                        "POST",
                        "/v1/namespaces/tls/memories",
                        "{\"type\":\"fact\",\"content\":\"The VPN gateway rotates keys on Mondays\"}");
        assertThat(written.statusCode()).as(written.body()).isEqualTo(201);
        var recalled =
                send(
                        "POST",
                        "/v1/namespaces/tls/recall",
                        "{\"query\":\"when does the VPN rotate keys\"}");
        assertThat(recalled.statusCode()).as(recalled.body()).isEqualTo(200);
        assertThat(recalled.body()).contains("rotates keys on Mondays");
    }

    @Test
    void aKeptAliveTlsConnectionOutlivesTheHeaderTimeoutOnceItsHeadsAreComplete() throws Exception {
        try (SSLSocket socket =
                (SSLSocket)
                        certificate
                                .trustingOnlyThis()
                                .getSocketFactory()
                                .createSocket("localhost", cairn.server.port())) {
            socket.setSoTimeout(10_000);
            byte[] health =
                    "GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 3; i++) {
                socket.getOutputStream().write(health);
                socket.getOutputStream().flush();
                assertThat(RawHttp.readHead(socket.getInputStream())).startsWith("HTTP/1.1 200");
                Thread.sleep(HEADER_TIMEOUT.toMillis() * 3 / 2);
            }
        }
    }

    @Test
    void plainHttpToTheTlsPortFailsWithoutAnAnswerOrAStackTrace() throws Exception {
        try (LogCapture logs = new LogCapture()) {
            HttpClient plain =
                    HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            assertThatThrownBy(
                            () ->
                                    plain.send(
                                            HttpRequest.newBuilder(
                                                            URI.create(
                                                                    "http://localhost:"
                                                                            + cairn.server.port()
                                                                            + "/health"))
                                                    .timeout(Duration.ofSeconds(10))
                                                    .build(),
                                            HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(IOException.class);
            Thread.sleep(500);
            assertThat(logs.records()).filteredOn(r -> r.getThrown() != null).isEmpty();
        }
        assertThat(send("GET", "/health", null).statusCode()).isEqualTo(200);
    }

    @Test
    void aPemCertificateAndKeyPairLoadsTheSameKey() throws Exception {
        List<Path> pem = certificate.writePem(dir);
        Tls tls = ServerTls.load(new TlsSettings.Pem(pem.get(0), pem.get(1))).orElseThrow();
        assertThat(tls.enabled()).isTrue();
        assertThat(tls.prototype().privateKey()).contains(certificate.key());
        assertThat(tls.prototype().privateKeyCertChain())
                .containsExactly((X509Certificate) certificate.certificate());

        assertThatThrownBy(() -> ServerTls.load(new TlsSettings.Pem(pem.get(1), pem.get(1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cairn.server.tls.certificate")
                .hasMessageNotContaining("\n");
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(cairn.server.baseUri().resolve(path))
                        .timeout(Duration.ofSeconds(30))
                        .header("Authorization", "Bearer " + CairnCalls.ADMIN)
                        .method(
                                method,
                                body == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return https.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
