package dev.cairn.server.cli;

import dev.cairn.server.Cairn;
import dev.cairn.server.ServerMarker;
import dev.cairn.server.ServerSettings;
import dev.cairn.server.auth.TokensFileImport;
import dev.cairn.server.transfer.StoreMigration;
import dev.cairn.store.StoredToken;
import io.helidon.config.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cairn migrate --from DATA_DIR --to JDBC_URL}: every namespace of an embedded store and its
 * API tokens into PostgreSQL ({@link StoreMigration}), then one summary line; exit 1 when a
 * namespace's counts disagree at the end or a token did not arrive. Run it again after an
 * interruption: what arrived whole is skipped, the rest is imported again without copies.
 */
@Command(
        name = "migrate",
        description =
                "Copy every namespace and API token of an embedded data dir into PostgreSQL, with"
                        + " counts checked at the end (safe to run again).",
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
                    new StoreMigration(
                                    origin.knowledge(),
                                    target.knowledge(),
                                    Clock.systemUTC(),
                                    tokensBesideTheStore(source))
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
                        "migrated %d namespaces (%d already there) and %d api tokens from %s in"
                                + " %.0f s: %s",
                        outcome.moved().size(),
                        already,
                        outcome.tokens().count(),
                        source,
                        (System.nanoTime() - started) / 1e9,
                        totals.isEmpty() ? "nothing in them" : totals);
        if (!outcome.mismatches().isEmpty() || !outcome.tokens().missing().isEmpty()) {
            List<String> differ = new ArrayList<>();
            if (!outcome.mismatches().isEmpty()) {
                differ.add(describe(outcome.mismatches()));
            }
            if (!outcome.tokens().missing().isEmpty()) {
                differ.add(
                        "api tokens (the target gives these names to other tokens: "
                                + String.join(", ", outcome.tokens().missing())
                                + ")");
            }
            System.out.println(summary + "; counts DIFFER in " + String.join(", ", differ));
            return 1;
        }
        System.out.println(summary + "; counts equal in both stores");
        return 0;
    }

    /** The source's {@code tokens.json} when no server of this version has moved it yet. */
    private static List<StoredToken> tokensBesideTheStore(Path dataDir) {
        Path file = dataDir.resolve(TokensFileImport.FILE);
        return Files.exists(file) ? TokensFileImport.read(file) : List.of();
    }

    private static String describe(Map<String, Map<String, Long>> mismatches) {
        return mismatches.entrySet().stream()
                .map(e -> e.getKey() + " (the target holds " + e.getValue() + ")")
                .collect(Collectors.joining(", "));
    }
}
