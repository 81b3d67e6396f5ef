package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.store.PostgresTestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link ForgetUserTest} on PostgreSQL: the data dir keeps only the Lucene directories, and a
 * {@code pg_dump} of the test schema must not hold the forgotten user's marker either (it must hold
 * the other user's). Needs {@code pg_dump} on the PATH or in {@code /usr/lib/postgresql/NN/bin}.
 */
class PostgresForgetUserTest extends ForgetUserTest {

    private PostgresTestDatabase database;

    @Override
    ServerSettings settings(Path dataDir) {
        database = PostgresTestDatabase.create();
        return super.settings(dataDir).withDbUrl(database.jdbcUrl());
    }

    /** Stops the server, then drops the schema it used. */
    @AfterEach
    @Override
    void stop() {
        try {
            super.stop();
        } finally {
            if (database != null) {
                database.close();
            }
        }
    }

    @Override
    List<byte[]> storeOutsideDataDir() {
        return List.of(dump());
    }

    /** A plain-text dump of the test schema, through libpq's URI form of the JDBC URL. */
    private byte[] dump() {
        String jdbc = database.jdbcUrl();
        String uri = jdbc.substring("jdbc:".length()).replaceAll("[?&]currentSchema=[^&]*", "");
        try {
            Path out = Files.createTempFile("cairn-forget", ".sql");
            try {
                Process p =
                        new ProcessBuilder(
                                        pgDump(),
                                        "--no-owner",
                                        "--schema=" + database.schema(),
                                        "--file=" + out,
                                        "--dbname=" + uri)
                                .redirectErrorStream(true)
                                .start();
                String log = new String(p.getInputStream().readAllBytes());
                assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).as(log).isZero();
                return Files.readAllBytes(out);
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** pg_dump on the PATH, else the newest one Debian's packages install. */
    private static String pgDump() throws IOException {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "pg_dump"))) {
                return Path.of(dir, "pg_dump").toString();
            }
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                return versions.map(v -> v.resolve("bin/pg_dump"))
                        .filter(Files::isExecutable)
                        .max(java.util.Comparator.naturalOrder())
                        .map(Path::toString)
                        .orElse("pg_dump");
            }
        }
        return "pg_dump";
    }
}
