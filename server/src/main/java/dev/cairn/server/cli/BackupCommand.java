package dev.cairn.server.cli;

import dev.cairn.server.Cairn;
import dev.cairn.server.ServerSettings;
import dev.cairn.server.auth.AdminToken;
import dev.cairn.server.auth.TokensFileImport;
import dev.cairn.store.EmbeddedBackup;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code cairn backup DEST}: a consistent copy of the embedded store of the data dir, taken while a
 * server runs on it or not ({@link EmbeddedBackup#take}); PostgreSQL is backed up with pg_dump
 * ({@code docs/operations.md}).
 */
@Command(
        name = "backup",
        description =
                "Copy the embedded store of a data dir into a new folder, consistently, while a"
                        + " server runs on it or not (PostgreSQL: use pg_dump).",
        mixinStandardHelpOptions = true)
final class BackupCommand implements Callable<Integer> {

    /**
     * The data dir's files a backup carries beside the store: the admin token's hash and a {@code
     * tokens.json} not yet moved into the store (a data dir no server of this version has started
     * on; the tokens made with {@code POST /v1/tokens} are in the store), and the entity graph's
     * snapshot (derived, but rebuilding it is most of a start: 16 s of 24 for 839 runbooks). Not
     * {@code admin-token.txt}: a backup does not carry a secret in plain text. Not the Lucene
     * indexes: consistent only at a commit point, and rebuilt in seconds.
     */
    static final java.util.List<String> KEPT_FILES =
            java.util.List.of(
                    AdminToken.HASH_FILE, TokensFileImport.FILE, Cairn.GRAPH_SNAPSHOT_FILE);

    @Parameters(index = "0", paramLabel = "DEST", description = "new (or empty) folder to write")
    Path dest;

    @Mixin LocalOptions local;

    @Override
    public Integer call() {
        ServerSettings settings = local.settings();
        if (!settings.dbUrl().isBlank()) {
            throw new IllegalArgumentException(
                    "cairn backup copies the embedded store; back up PostgreSQL with pg_dump"
                            + " (docs/operations.md#backup-and-restore)");
        }
        Path dataDir = settings.dataDir().toAbsolutePath();
        EmbeddedBackup.Manifest m = EmbeddedBackup.take(dataDir, dest.toAbsolutePath(), KEPT_FILES);
        System.out.println(
                "backed up "
                        + dataDir
                        + " to "
                        + dest.toAbsolutePath()
                        + ": "
                        + RestoreCommand.describe(m));
        return 0;
    }
}
