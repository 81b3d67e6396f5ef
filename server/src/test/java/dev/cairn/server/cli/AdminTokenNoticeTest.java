package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated admin token reaches a terminal once and never a log file. */
class AdminTokenNoticeTest {

    static final String TOKEN = "cairn_" + "q3Zx9Lr2Vt8Kp1Wm5Nb7Hc4Jd6Fg0Sa2Ye8Ru1Io3Pk";

    @Test
    void onATerminalTheTokenIsPrintedOnce() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String shown =
                AdminTokenNotice.announce(
                        TOKEN,
                        true,
                        Path.of("unused"),
                        new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(shown).isEqualTo(TOKEN);
        assertThat(out.toString(StandardCharsets.UTF_8)).containsOnlyOnce(TOKEN);
    }

    @Test
    void withoutATerminalTheTokenGoesToAnOwnerOnlyFileAndOnlyItsPathIsPrinted(@TempDir Path dir)
            throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String shown =
                AdminTokenNotice.announce(
                        TOKEN, false, dir, new PrintStream(out, true, StandardCharsets.UTF_8));
        Path file = dir.resolve(AdminTokenNotice.FILE);
        assertThat(shown).isEqualTo("$CAIRN_TOKEN");
        assertThat(out.toString(StandardCharsets.UTF_8))
                .doesNotContain(TOKEN)
                .contains(file.toAbsolutePath().toString());
        assertThat(Files.readString(file).strip()).isEqualTo(TOKEN);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
    }
}
