package dev.cairn.server;

import io.helidon.common.configurable.Resource;
import io.helidon.common.pki.Keys;
import io.helidon.common.tls.Tls;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.UnrecoverableKeyException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Loads the listener's TLS key and certificate chain from {@link TlsSettings}. Every failure (a
 * missing file, a wrong password, a file that holds no key) is an {@link IllegalArgumentException}
 * with one line naming the config key and the file, never the password, so {@code cairn serve}
 * stops with exit 2 before it opens the store or loads a model.
 */
final class ServerTls {

    private ServerTls() {}

    /** The web server's TLS for {@code settings}, empty for plain HTTP. */
    static Optional<Tls> load(TlsSettings settings) {
        return switch (settings) {
            case TlsSettings.Plain plain -> Optional.empty();
            case TlsSettings.Keystore keystore -> Optional.of(fromKeystore(keystore));
            case TlsSettings.Pem pem -> Optional.of(fromPem(pem));
        };
    }

    private static Tls fromKeystore(TlsSettings.Keystore settings) {
        Path file = readable("cairn.server.tls.keystore", settings.keystore());
        char[] password = settings.password().toCharArray();
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias)) {
                    PrivateKey key = (PrivateKey) store.getKey(alias, password);
                    return tls(key, x509(store.getCertificateChain(alias)));
                }
            }
            throw new IllegalArgumentException(
                    "cairn.server.tls.keystore " + file + " holds no private key entry");
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw new IllegalArgumentException(
                        "cairn.server.tls.keystore-password does not open " + file);
            }
            throw new IllegalArgumentException(
                    "cairn.server.tls.keystore "
                            + file
                            + " is not a readable PKCS12 keystore ("
                            + oneLine(e)
                            + ")");
        } catch (GeneralSecurityException | ClassCastException e) {
            throw new IllegalArgumentException(
                    "cairn.server.tls.keystore " + file + " cannot be used (" + oneLine(e) + ")");
        }
    }

    private static Tls fromPem(TlsSettings.Pem settings) {
        Path certificate = readable("cairn.server.tls.certificate", settings.certificate());
        Path keyFile = readable("cairn.server.tls.key", settings.key());
        Keys keys;
        try {
            keys =
                    Keys.builder()
                            .pem(
                                    pem ->
                                            pem.key(Resource.create(keyFile))
                                                    .certChain(Resource.create(certificate)))
                            .build();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "cairn.server.tls.certificate "
                            + certificate
                            + " and key "
                            + keyFile
                            + " are not a readable PEM pair ("
                            + oneLine(e)
                            + ")");
        }
        PrivateKey key =
                keys.privateKey()
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "cairn.server.tls.key "
                                                        + keyFile
                                                        + " holds no PEM private key"));
        if (keys.certChain().isEmpty()) {
            throw new IllegalArgumentException(
                    "cairn.server.tls.certificate " + certificate + " holds no PEM certificate");
        }
        return tls(key, keys.certChain());
    }

    private static Tls tls(PrivateKey key, List<X509Certificate> chain) {
        return Tls.builder().privateKey(key).privateKeyCertChain(chain).build();
    }

    private static List<X509Certificate> x509(Certificate[] chain) {
        List<X509Certificate> certificates = new ArrayList<>();
        for (Certificate c : chain == null ? new Certificate[0] : chain) {
            certificates.add((X509Certificate) c);
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException(
                    "cairn.server.tls.keystore: the key entry has no certificate chain");
        }
        return certificates;
    }

    private static Path readable(String key, Path file) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new IllegalArgumentException(
                    key + " " + file.toAbsolutePath() + " does not exist or is not readable");
        }
        return file;
    }

    private static String oneLine(Exception e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.lines().findFirst().orElse("").strip();
    }
}
