package dev.cairn.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on the embedded (SQLite) backend, in a fresh temp dir per test. */
class EmbeddedStoreTest extends StoreContractTest {

    @TempDir Path temp;
    private Path dataDir;
    private int locations;

    @Override
    protected void newLocation() {
        dataDir = temp.resolve("data-" + locations++);
    }

    @Override
    protected Store open(StoreConfig config) {
        return Store.embedded(dataDir, config);
    }

    @Override
    protected Store.Kind expectedKind() {
        return Store.Kind.EMBEDDED;
    }

    @Test
    void aLargeTransactionDoesNotLeaveItsSizeInTheWalFile() throws Exception {
        store.createNamespace("big", "");
        SqlAccess sql = store.sql();
        sql.write(
                "big",
                c -> {
                    try (var s = c.createStatement()) {
                        s.execute("CREATE TABLE wal_filler (b BLOB)");
                        for (int i = 0; i < 96; i++) {
                            s.execute("INSERT INTO wal_filler VALUES (randomblob(1048576))");
                        }
                    }
                    return null;
                });
        Path wal = dataDir.resolve(EmbeddedStore.FILE_NAME + "-wal");
        assertThat(Files.size(wal)).isGreaterThan(96L << 20);

        sql.write(
                "big",
                c -> {
                    try (var s = c.createStatement()) {
                        s.execute("DROP TABLE wal_filler");
                    }
                    return null;
                });
        // each commit checkpoints a WAL past 1,000 pages; the write after that one starts the
        // WAL over, which is when SQLite truncates the file
        store.createNamespace("after-checkpoint", "");

        assertThat(Files.size(wal)).isLessThanOrEqualTo(EmbeddedStore.WAL_SIZE_LIMIT_BYTES);
    }

    @Test
    void acknowledgedWritesSurviveSigkill() throws Exception {
        store.close();
        store = null;
        Path killed = temp.resolve("killed");
        int count = 20;
        Process child =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                EmbeddedWriterProcess.class.getName(),
                                killed.toString(),
                                Integer.toString(count))
                        .redirectErrorStream(true)
                        .start();
        List<String> output = new ArrayList<>();
        try (BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                output.add(line);
                if (line.equals("acked " + (count - 1))) {
                    break;
                }
            }
            child.destroyForcibly(); // SIGKILL: no shutdown hooks, no close
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(output).as("child output").contains("acked " + (count - 1));

        try (Store reopened = Store.embedded(killed, config())) {
            assertThat(reopened.changesSince(0, 1000))
                    .filteredOn(c -> c.kind() == Change.Kind.MEMORY)
                    .extracting(Change::entityId)
                    .containsExactlyElementsOf(
                            java.util.stream.IntStream.range(0, count)
                                    .mapToObj(i -> "m-" + i)
                                    .toList());
        }
        store = open(config());
    }

    @Test
    void keepsItsRowsInOneSqliteFileInTheDataDir() {
        store.createNamespace("files", "");

        assertThat(dataDir.resolve(EmbeddedStore.FILE_NAME)).isRegularFile();
        assertThat(Files.exists(dataDir.resolve(EmbeddedStore.FILE_NAME + "-wal"))).isTrue();
    }

    @Test
    void aForgetLeavesTheWalEmpty() throws Exception {
        store.createNamespace("forget", "");
        for (int i = 0; i < 20; i++) {
            store.createNamespace("filler-" + i, "words that go to the WAL first");
        }
        Path wal = dataDir.resolve(EmbeddedStore.FILE_NAME + "-wal");
        assertThat(Files.size(wal)).isPositive();

        store.forgetUser("forget", "alice", "ops", c -> Map.of());

        assertThat(Files.size(wal)).isZero();
    }
}
