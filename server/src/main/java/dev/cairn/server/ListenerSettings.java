package dev.cairn.server;

import io.helidon.config.Config;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How the server's listener treats connections: how long a client may take to send a complete
 * request head and then its body, how long a connection may idle between requests, and TLS. Keys
 * under {@code cairn.server}: {@code header-timeout-seconds}, {@code body-timeout-seconds}, {@code
 * idle-timeout-seconds}, {@code tls.keystore} and {@code tls.keystore-password}, or {@code
 * tls.certificate} and {@code tls.key}.
 *
 * @param headerTimeout a connection that has not sent its whole request head this long after it
 *     opened (or after the request line of a later request) is closed
 * @param bodyTimeout a request whose body has not arrived in full this long after its head is
 *     answered 408 (when its handler reads the body) and its connection closed
 * @param idleTimeout a connection idle this long between requests is closed
 * @param tls plain HTTP or where the TLS key and certificate are
 */
public record ListenerSettings(
        Duration headerTimeout, Duration bodyTimeout, Duration idleTimeout, TlsSettings tls) {

    /** Generous for a person on a slow link; a real client sends its head in milliseconds. */
    public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);

    /**
     * A body of the default 10 MiB limit arrives within it at 2.8 Mbit/s; an agent's bodies are
     * kilobytes, sent in milliseconds.
     */
    public static final Duration DEFAULT_BODY_TIMEOUT = Duration.ofSeconds(30);

    /** Long enough for keep-alive between an agent's calls, short enough to free idle sockets. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

    /** Where the keystore password may come from instead of a file: the environment. */
    public static final String KEYSTORE_PASSWORD_ENV = "CAIRN_TLS_KEYSTORE_PASSWORD";

    public ListenerSettings {
        requirePositive("header-timeout", headerTimeout);
        requirePositive("body-timeout", bodyTimeout);
        requirePositive("idle-timeout", idleTimeout);
        Objects.requireNonNull(tls, "tls");
    }

    public static ListenerSettings defaults() {
        return new ListenerSettings(
                DEFAULT_HEADER_TIMEOUT,
                DEFAULT_BODY_TIMEOUT,
                DEFAULT_IDLE_TIMEOUT,
                TlsSettings.NONE);
    }

    /** Reads the {@code cairn.server} config node. */
    static ListenerSettings fromConfig(Config server) {
        return new ListenerSettings(
                Duration.ofSeconds(
                        server.get("header-timeout-seconds")
                                .asLong()
                                .orElse(DEFAULT_HEADER_TIMEOUT.toSeconds())),
                Duration.ofSeconds(
                        server.get("body-timeout-seconds")
                                .asLong()
                                .orElse(DEFAULT_BODY_TIMEOUT.toSeconds())),
                Duration.ofSeconds(
                        server.get("idle-timeout-seconds")
                                .asLong()
                                .orElse(DEFAULT_IDLE_TIMEOUT.toSeconds())),
                tls(server.get("tls")));
    }

    private static TlsSettings tls(Config node) {
        String keystore = node.get("keystore").asString().orElse("").trim();
        String certificate = node.get("certificate").asString().orElse("").trim();
        String key = node.get("key").asString().orElse("").trim();
        if (!keystore.isEmpty() && !(certificate.isEmpty() && key.isEmpty())) {
            throw new IllegalArgumentException(
                    "cairn.server.tls: set either keystore (PKCS12) or certificate and key (PEM),"
                            + " not both");
        }
        if (!keystore.isEmpty()) {
            String password = node.get("keystore-password").asString().orElse("");
            String env = System.getenv(KEYSTORE_PASSWORD_ENV);
            if (password.isEmpty() && env != null) {
                password = env;
            }
            return new TlsSettings.Keystore(Path.of(keystore), password);
        }
        if (certificate.isEmpty() != key.isEmpty()) {
            throw new IllegalArgumentException(
                    "cairn.server.tls: a PEM pair needs both certificate and key, got only "
                            + (certificate.isEmpty() ? "key" : "certificate"));
        }
        return certificate.isEmpty()
                ? TlsSettings.NONE
                : new TlsSettings.Pem(Path.of(certificate), Path.of(key));
    }

    private static void requirePositive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(
                    "illegal " + name + ": " + value.toMillis() + " ms, must be > 0");
        }
    }

    public ListenerSettings withHeaderTimeout(Duration newTimeout) {
        return new ListenerSettings(newTimeout, bodyTimeout, idleTimeout, tls);
    }

    public ListenerSettings withBodyTimeout(Duration newTimeout) {
        return new ListenerSettings(headerTimeout, newTimeout, idleTimeout, tls);
    }

    public ListenerSettings withIdleTimeout(Duration newTimeout) {
        return new ListenerSettings(headerTimeout, bodyTimeout, newTimeout, tls);
    }

    public ListenerSettings withTls(TlsSettings newTls) {
        return new ListenerSettings(headerTimeout, bodyTimeout, idleTimeout, newTls);
    }
}
