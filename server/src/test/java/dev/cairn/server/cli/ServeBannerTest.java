package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The banner's examples work when pasted into a shell. */
class ServeBannerTest {

    @Test
    void pastedExampleSendsTheTokenFromTheEnvironment() throws Exception {
        List<String> lines =
                ServeBanner.lines("http://localhost:8080", "embedded store", Optional.empty());
        String example =
                lines.stream().filter(l -> l.contains("/v1/namespaces")).findFirst().orElseThrow();
        // a curl that prints its arguments, one per line, instead of calling anything
        String printed =
                bash(
                        "curl() { printf '%s\\n' \"$@\"; }; CAIRN_TOKEN=s3cret-abc;"
                                + example.strip());
        assertThat(printed.lines())
                .contains(
                        "Authorization: Bearer s3cret-abc",
                        "{\"name\":\"runbooks\"}",
                        "http://localhost:8080/v1/namespaces");
    }

    @Test
    void firstStartShowsTheTokenAndHowToExportIt() throws Exception {
        List<String> lines =
                ServeBanner.lines("http://localhost:8080", "embedded store", Optional.of("tok-1"));
        assertThat(lines).contains("  export CAIRN_TOKEN=tok-1");
        String exported = bash(lines.get(2).strip() + "; printf %s \"$CAIRN_TOKEN\"");
        assertThat(exported).isEqualTo("tok-1");
    }

    @Test
    void laterStartsSayWhereTheTokenComesFrom() {
        List<String> lines =
                ServeBanner.lines("http://localhost:8080", "embedded store", Optional.empty());
        assertThat(lines).noneMatch(l -> l.startsWith("Admin token (shown once"));
        assertThat(lines).anyMatch(l -> l.contains("CAIRN_ADMIN_TOKEN") && l.contains("README"));
    }

    private static String bash(String script) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
