package dev.cairn.embeddings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-user directory the converted weights are kept in, and its fallback. */
class WeightCacheDirTest {

    @TempDir Path dir;

    @Test
    void theSharedDirectoryIsTheConfiguredOneAndCreatedOwnerOnly() throws IOException {
        Path wanted = dir.resolve("cache/cairn");
        String was = System.setProperty(WeightCacheDir.PROPERTY, wanted.toString());
        try {
            assertThat(WeightCacheDir.user()).contains(wanted);
            assertThat(
                            java.nio.file.attribute.PosixFilePermissions.toString(
                                    Files.getPosixFilePermissions(wanted)))
                    .isEqualTo("rwx------");
        } finally {
            restore(WeightCacheDir.PROPERTY, was);
        }
    }

    @Test
    void aDirectoryThatCannotBeMadeFallsBackToATemporaryOneWithAWarning() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        String wasDir =
                System.setProperty(WeightCacheDir.PROPERTY, file.resolve("cairn").toString());
        String wasTmp = System.setProperty("java.io.tmpdir", tmp.toString());
        try (LogLines logs = new LogLines()) {
            Optional<Path> used = WeightCacheDir.user();
            assertThat(used).hasValueSatisfying(p -> assertThat(p.getParent()).isEqualTo(tmp));
            assertThat(used.get()).isDirectory();
            assertThat(logs.lines())
                    .singleElement()
                    .asString()
                    .startsWith("cannot keep the model weights in " + file.resolve("cairn"))
                    .contains("using " + used.get() + " instead");
        } finally {
            restore(WeightCacheDir.PROPERTY, wasDir);
            restore("java.io.tmpdir", wasTmp);
        }
    }

    private static void restore(String property, String was) {
        if (was == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, was);
        }
    }
}
