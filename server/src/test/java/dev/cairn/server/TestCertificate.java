package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for {@code localhost} and {@code 127.0.0.1}, made at test time by the
 * JDK's {@code keytool} in a PKCS12 keystore (valid two days; never checked in).
 *
 * @param keystore the {@code .p12} file
 * @param password its password
 * @param certificate the certificate
 * @param key its private key
 */
public record TestCertificate(
        Path keystore, String password, Certificate certificate, PrivateKey key) {

    public static final String PASSWORD = "test-keystore-password";

    /** Makes the keystore in {@code dir}. */
    public static TestCertificate make(Path dir) {
        Path keystore = dir.resolve("cairn-test.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "cairn",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-ext",
                "SAN=dns:localhost,ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                PASSWORD);
        try (InputStream in = Files.newInputStream(keystore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD.toCharArray());
            return new TestCertificate(
                    keystore,
                    PASSWORD,
                    store.getCertificate("cairn"),
                    (PrivateKey) store.getKey("cairn", PASSWORD.toCharArray()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A TLS context that trusts this certificate and nothing else. */
    public SSLContext trustingOnlyThis() throws GeneralSecurityException, IOException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("cairn", certificate);
        TrustManagerFactory factory =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    /** Writes the certificate and the key as PEM files in {@code dir}; answers {cert, key}. */
    public List<Path> writePem(Path dir) throws GeneralSecurityException, IOException {
        Path cert = dir.resolve("cert.pem");
        Path keyFile = dir.resolve("key.pem");
        Files.writeString(cert, pem("CERTIFICATE", certificate.getEncoded()));
        Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded()));
        return List.of(cert, keyFile);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN "
                + type
                + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(der)
                + "\n-----END "
                + type
                + "-----\n";
    }

    private static void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output =
                    new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor()).as(output).isZero();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
