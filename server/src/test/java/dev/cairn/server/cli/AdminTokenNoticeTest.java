package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated admin token reaches a terminal once and never a log file. */
class AdminTokenNoticeTest {

    static final String TOKEN = "cairn_" + "q3Zx9Lr2Vt8Kp1Wm5Nb7Hc4Jd6Fg0Sa2Ye8Ru1Io3Pk";

    @Test
    void onATerminalTheTokenIsPrintedOnce() {
        List<String> lines =
                ServeBanner.lines(
                        "http://localhost:8080",
                        "embedded store",
                        AdminTokenNotice.banner(Optional.of(TOKEN), true, false, Path.of("x")));
        assertThat(lines.stream().filter(l -> l.startsWith("Admin token")).toList())
                .singleElement()
                .asString()
                .contains(TOKEN);
    }

    @Test
    void withoutATerminalTheTokenGoesToAnOwnerOnlyFileAndOnlyItsPathIsPrinted(@TempDir Path dir)
            throws Exception {
        List<String> lines =
                ServeBanner.lines(
                        "http://localhost:8080",
                        "embedded store",
                        AdminTokenNotice.banner(Optional.of(TOKEN), false, false, dir));
        Path file = dir.resolve(AdminTokenNotice.FILE).toAbsolutePath();

        assertThat(String.join("\n", lines)).doesNotContain(TOKEN).contains(file.toString());
        assertThat(Files.readString(file).strip()).isEqualTo(TOKEN);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        String export =
                lines.stream().filter(l -> l.contains("export")).findFirst().orElseThrow().strip();
        Process bash =
                new ProcessBuilder("bash", "-c", export + "; printf %s \"$CAIRN_TOKEN\"")
                        .redirectErrorStream(true)
                        .start();
        assertThat(new String(bash.getInputStream().readAllBytes())).isEqualTo(TOKEN);
    }
}
