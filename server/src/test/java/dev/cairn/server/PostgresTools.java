package dev.cairn.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.store.PostgresTestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** PostgreSQL's own client programs (pg_dump, pg_restore) run against a test database. */
final class PostgresTools {

    private PostgresTools() {}

    /** libpq's URI form of a JDBC URL, without the test schema's search path. */
    static String libpqUri(String jdbcUrl) {
        return jdbcUrl.substring("jdbc:".length()).replaceAll("[?&]currentSchema=[^&]*", "");
    }

    /** The JDBC URL with another database name in it. */
    static String withDatabase(String jdbcUrl, String database) {
        return jdbcUrl.replaceFirst("(//[^/]+/)[^?]*", "$1" + database);
    }

    /** Dumps the test schema into {@code out} in pg_dump's {@code format} (plain or custom). */
    static void dump(PostgresTestDatabase database, String format, Path out) {
        run(
                "pg_dump",
                "--no-owner",
                "--format=" + format,
                "--schema=" + database.schema(),
                "--file=" + out,
                "--dbname=" + libpqUri(database.jdbcUrl()));
    }

    /** Runs one of PostgreSQL's programs; fails the test with its output when it fails. */
    static void run(String program, String... args) {
        List<String> command = new ArrayList<>();
        command.add(program(program));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes());
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as(program + " finished").isTrue();
            assertThat(p.exitValue()).as(log).isZero();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The program on the PATH, else the newest one Debian's packages install. */
    private static String program(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return Path.of(dir, name).toString();
            }
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                return versions.map(v -> v.resolve("bin").resolve(name))
                        .filter(Files::isExecutable)
                        .max(java.util.Comparator.naturalOrder())
                        .map(Path::toString)
                        .orElse(name);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return name;
    }
}
