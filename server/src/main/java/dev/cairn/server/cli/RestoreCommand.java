package dev.cairn.server.cli;

import dev.cairn.server.Cairn;
import dev.cairn.server.ServerMarker;
import dev.cairn.server.ServerSettings;
import dev.cairn.store.EmbeddedBackup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cairn restore SRC}: puts a {@code cairn backup} into a data dir no server runs on (the
 * store, the token files and the entity graph's snapshot it carries), and removes the data dir's
 * Lucene indexes, which Cairn builds again from the restored store when it next opens it.
 */
@Command(
        name = "restore",
        description =
                "Put a backup made by cairn backup into a data dir (no server may run on it); its"
                        + " indexes are rebuilt from the store at the next start.",
        mixinStandardHelpOptions = true)
final class RestoreCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "SRC", description = "folder cairn backup wrote")
    Path source;

    @Option(
            names = "--replace",
            description = "overwrite a store the data dir holds (default: refuse)")
    boolean replace;

    @Mixin LocalOptions local;

    @Override
    public Integer call() throws IOException {
        ServerSettings settings = local.settings();
        if (!settings.dbUrl().isBlank()) {
            throw new IllegalArgumentException(
                    "cairn restore fills an embedded data dir; restore PostgreSQL with pg_restore"
                            + " (docs/operations.md#backup-and-restore)");
        }
        Path dataDir = settings.dataDir().toAbsolutePath();
        ServerMarker.holder(dataDir)
                .ifPresent(
                        server -> {
                            throw new IllegalArgumentException(
                                    "the data dir "
                                            + dataDir
                                            + " is served by pid "
                                            + server.pid()
                                            + " at "
                                            + server.url()
                                            + "; stop it before restoring into it");
                        });
        LocalOptions.requireNotServed(settings);
        EmbeddedBackup.Manifest m = EmbeddedBackup.restore(source, dataDir, replace);
        Folders.deleteTree(dataDir.resolve("lucene"));
        if (!m.files().contains(Cairn.GRAPH_SNAPSHOT_FILE)) {
            Files.deleteIfExists(dataDir.resolve(Cairn.GRAPH_SNAPSHOT_FILE));
        }
        System.out.println(
                "restored "
                        + source.toAbsolutePath()
                        + " into "
                        + dataDir
                        + ": "
                        + describe(m)
                        + "; the indexes are rebuilt from the store at the next start");
        return 0;
    }

    /** One line about a backup: when, how much, up to which change. */
    static String describe(EmbeddedBackup.Manifest m) {
        return String.format(
                "%d namespaces, %d memories, %d documents, %.1f MB, changes up to %d, as of %s",
                m.rows().getOrDefault("namespaces", 0L),
                m.rows().getOrDefault("memories", 0L),
                m.rows().getOrDefault("documents", 0L),
                m.bytes() / 1e6,
                m.lastChangeSeq(),
                m.takenAt());
    }
}
