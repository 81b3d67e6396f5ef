package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The banner's examples work when pasted into a shell. */
class ServeBannerTest {

    @Test
    void pastedExampleSendsTheTokenFromTheEnvironment() throws Exception {
        List<String> lines =
                ServeBanner.lines(
                        "http://localhost:8080",
                        "embedded store",
                        new ServeBanner.AdminToken.Configured());
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
                ServeBanner.lines(
                        "http://localhost:8080",
                        "embedded store",
                        new ServeBanner.AdminToken.Shown("tok-1"));
        assertThat(lines).contains("  export CAIRN_TOKEN=tok-1");
        String exported = bash(lines.get(2).strip() + "; printf %s \"$CAIRN_TOKEN\"");
        assertThat(exported).isEqualTo("tok-1");
    }

    @Test
    void laterStartsNameTheFileTheFirstStartWroteTheTokenTo(@TempDir Path dataDir)
            throws Exception {
        AdminTokenNotice.write("tok-2", dataDir);
        List<String> lines =
                ServeBanner.lines(
                        "http://localhost:8080",
                        "embedded store",
                        AdminTokenNotice.banner(Optional.empty(), false, false, dataDir));
        Path file = dataDir.resolve(AdminTokenNotice.FILE).toAbsolutePath();
        assertThat(lines)
                .noneMatch(l -> l.contains("printed at the first start"))
                .contains(
                        "Admin token: in "
                                + file
                                + ", written at the first start (owner-only; store it and delete"
                                + " the file)");
        String exported =
                bash(
                        lines.stream().filter(l -> l.contains("export")).findFirst().orElseThrow()
                                + "; printf %s \"$CAIRN_TOKEN\"");
        assertThat(exported).isEqualTo("tok-2");
    }

    @Test
    void laterStartsWithoutTheFileSayWhereItWasAndWhatToDo(@TempDir Path dataDir) {
        List<String> lines =
                ServeBanner.lines(
                        "http://localhost:8080",
                        "embedded store",
                        AdminTokenNotice.banner(Optional.empty(), false, false, dataDir));
        assertThat(lines)
                .contains(
                        "Admin token: the one the first start printed or wrote to "
                                + dataDir.resolve(AdminTokenNotice.FILE).toAbsolutePath()
                                + " (gone now; lost it? see the README)");
    }

    @Test
    void aConfiguredTokenIsNamedAsConfigured(@TempDir Path dataDir) {
        AdminTokenNotice.write("tok-3", dataDir); // an old file does not matter then
        assertThat(
                        ServeBanner.lines(
                                "http://localhost:8080",
                                "embedded store",
                                AdminTokenNotice.banner(Optional.empty(), false, true, dataDir)))
                .contains("Admin token: the one CAIRN_ADMIN_TOKEN (cairn.auth.admin-token) sets")
                .noneMatch(l -> l.contains("tok-3") || l.contains(AdminTokenNotice.FILE));
    }

    private static String bash(String script) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
