package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.store.Store;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local-mode read command checks the cheap things (data dir, a server holding it, the namespace)
 * before it loads the encoder, and never creates a data dir. Each case answers within seconds:
 * loading PyTorch alone takes longer than the limit asserted here.
 */
class LocalChecksTest {

    /** Well under the encoder's load time, so a passing test shows the model never loaded. */
    private static final long FAST_MS = 10_000;

    @TempDir Path dir;

    private record Outcome(int exit, String err, long ms) {}

    private static Outcome run(String... args) {
        StringWriter err = new StringWriter();
        long start = System.nanoTime();
        int exit = Main.run(new PrintWriter(err, true), args);
        return new Outcome(exit, err.toString(), (System.nanoTime() - start) / 1_000_000);
    }

    @Test
    void readingAMissingDataDirSaysSoAndCreatesNothing() {
        Path data = dir.resolve("cairn-data");
        Outcome o = run("retrieve", "how?", "--namespace", "ops", "--data", data.toString());
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err())
                .contains("no Cairn data in " + data.toAbsolutePath())
                .contains("--server URL");
        assertThat(data).doesNotExist();
        assertThat(o.ms()).isLessThan(FAST_MS);
    }

    @Test
    void unknownNamespaceIsReportedWithTheOnesThereBeforeTheModelLoads() {
        try (Store store = Store.embedded(dir)) {
            store.createNamespace("runbooks", "");
            store.createNamespace("team", "");
        }
        Outcome o = run("recall", "what?", "--namespace", "ops", "--data", dir.toString());
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err())
                .contains("namespace 'ops' does not exist in " + dir.toAbsolutePath())
                .contains("it has: runbooks, team");
        assertThat(o.ms()).isLessThan(FAST_MS);
    }

    @Test
    void aDataDirHeldByARunningServerPointsToServer() throws Exception {
        try (Store store = Store.embedded(dir)) {
            store.createNamespace("ops", "");
        }
        Path lock = dir.resolve("lucene/documents/ops/write.lock");
        Files.createDirectories(lock.getParent());
        try (FileChannel channel =
                        FileChannel.open(
                                lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock held = channel.lock()) {
            Outcome o = run("retrieve", "how?", "--namespace", "ops", "--data", dir.toString());
            assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
            assertThat(o.err())
                    .contains("is in use by a running Cairn server")
                    .contains("--server URL --token TOKEN");
            assertThat(o.ms()).isLessThan(FAST_MS);
            assertThat(held.isValid()).isTrue();
        }
        // once the holder is gone, the lock file alone does not count
        assertThat(LocalOptions.heldLock(dir.resolve("lucene"))).isEmpty();
    }
}
