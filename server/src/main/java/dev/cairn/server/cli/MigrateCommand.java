package dev.cairn.server.cli;

import dev.cairn.server.Cairn;
import dev.cairn.server.ServerMarker;
import dev.cairn.server.ServerSettings;
import dev.cairn.server.transfer.StoreMigration;
import io.helidon.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cairn migrate --from DATA_DIR --to JDBC_URL}: every namespace of an embedded store into
 * PostgreSQL ({@link StoreMigration}), then one summary line; exit 1 when a namespace's counts
 * disagree at the end. Run it again after an interruption: what arrived whole is skipped, the rest
 * is imported again without copies.
 */
@Command(
        name = "migrate",
        description =
                "Copy every namespace of an embedded data dir into PostgreSQL, with counts checked"
                        + " at the end (safe to run again).",
        mixinStandardHelpOptions = true)
final class MigrateCommand implements Callable<Integer> {

    @Option(
            names = "--from",
            required = true,
            paramLabel = "DATA_DIR",
            description = "the embedded store's data dir to copy (required; only read)")
    Path from;

    @Option(
            names = "--to",
            required = true,
            paramLabel = "JDBC_URL",
            description =
                    "the PostgreSQL database to copy into (required), e.g."
                            + " jdbc:postgresql://db:5432/cairn?user=cairn")
    String to;

    @Override
    public Integer call() throws IOException {
        Path source = from.toAbsolutePath().normalize();
        if (!Files.isRegularFile(source.resolve(LocalOptions.EMBEDDED_DB_FILE))) {
            throw new IllegalArgumentException(
                    "no embedded Cairn store in "
                            + source
                            + " (no "
                            + LocalOptions.EMBEDDED_DB_FILE
                            + ")");
        }
        if (!to.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(
                    "--to must be a PostgreSQL JDBC URL (jdbc:postgresql://HOST:PORT/DB?user=U),"
                            + " got '"
                            + to
                            + "'");
        }
        ServerMarker.holder(source)
                .ifPresent(
                        server -> {
                            throw new IllegalArgumentException(
                                    "the data dir "
                                            + source
                                            + " is served by pid "
                                            + server.pid()
                                            + " at "
                                            + server.url()
                                            + "; stop it first: writes made during the copy would"
                                            + " not reach PostgreSQL");
                        });
        Config config = Config.create().get("cairn");
        ServerSettings sourceSettings = Settings.resolve(config, source, null, "");
        LocalOptions.requireNotServed(sourceSettings);
        Path work = Files.createTempDirectory("cairn-migrate");
        long started = System.nanoTime();
        StoreMigration.Outcome outcome;
        // the target's own indexes are made in the work folder and dropped: every server on the
        // database builds its own from the change log
        try (Cairn target = Cairn.open(Settings.resolve(config, work.resolve("target"), null, to));
                Cairn origin = Cairn.open(sourceSettings)) {
            outcome =
                    new StoreMigration(origin.knowledge(), target.knowledge(), Clock.systemUTC())
                            .run(work, line -> System.err.println("cairn migrate: " + line));
        } finally {
            Folders.deleteTree(work);
        }
        long already = outcome.moved().stream().filter(StoreMigration.Moved::alreadyThere).count();
        String totals =
                outcome.totals().entrySet().stream()
                        .filter(e -> e.getValue() > 0)
                        .map(e -> e.getValue() + " " + e.getKey())
                        .collect(Collectors.joining(", "));
        String summary =
                String.format(
                        "migrated %d namespaces (%d already there) from %s in %.0f s: %s",
                        outcome.moved().size(),
                        already,
                        source,
                        (System.nanoTime() - started) / 1e9,
                        totals.isEmpty() ? "nothing in them" : totals);
        if (!outcome.mismatches().isEmpty()) {
            System.out.println(summary + "; counts DIFFER in " + describe(outcome.mismatches()));
            return 1;
        }
        System.out.println(summary + "; counts equal in both stores");
        return 0;
    }

    private static String describe(Map<String, Map<String, Long>> mismatches) {
        return mismatches.entrySet().stream()
                .map(e -> e.getKey() + " (the target holds " + e.getValue() + ")")
                .collect(Collectors.joining(", "));
    }
}
