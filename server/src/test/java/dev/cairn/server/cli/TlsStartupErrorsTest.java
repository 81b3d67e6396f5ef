package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.cairn.server.TestCertificate;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TLS key that cannot be used stops {@code cairn serve} with one line and exit 2, before the
 * store opens or the model loads, and the line never holds the password.
 */
class TlsStartupErrorsTest {

    @Test
    void aWrongKeystorePasswordIsOneLineAndExit2(@TempDir Path dir) {
        TestCertificate certificate = TestCertificate.make(dir);
        assertThat(serve(dir, certificate.keystore().toString(), "not-the-password"))
                .isEqualTo(
                        "cairn: cairn.server.tls.keystore-password does not open "
                                + certificate.keystore()
                                + System.lineSeparator());
    }

    @Test
    void aMissingKeystoreIsOneLineAndExit2(@TempDir Path dir) {
        assertThat(serve(dir, dir.resolve("nope.p12").toString(), TestCertificate.PASSWORD))
                .startsWith("cairn: cairn.server.tls.keystore ")
                .contains("nope.p12 does not exist or is not readable")
                .doesNotContain(TestCertificate.PASSWORD)
                .hasLineCount(1);
    }

    /** Runs {@code cairn serve} with the TLS keys as system properties; answers its stderr. */
    private static String serve(Path dir, String keystore, String password) {
        System.setProperty("cairn.server.tls.keystore", keystore);
        System.setProperty("cairn.server.tls.keystore-password", password);
        try {
            StringWriter err = new StringWriter();
            Path data = dir.resolve("serve-data");
            int code =
                    assertTimeoutPreemptively(
                            Duration.ofSeconds(30),
                            () ->
                                    Main.run(
                                            new PrintWriter(err, true),
                                            "serve",
                                            "--data",
                                            data.toString(),
                                            "--port",
                                            "0"));
            assertThat(code).as(err.toString()).isEqualTo(2);
            assertThat(Files.exists(data))
                    .as("nothing is opened before the TLS key is read")
                    .isFalse();
            return err.toString();
        } finally {
            System.clearProperty("cairn.server.tls.keystore");
            System.clearProperty("cairn.server.tls.keystore-password");
        }
    }
}
