package dev.cairn.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The data dir holds the embedded database, the indexes and token hashes: only the user running
 * Cairn may read it. The directory is created (or tightened) to 0700, and everything under it to
 * 0700 (directories) and 0600 (files); on a file system without POSIX permissions nothing is
 * changed.
 */
public final class DataDir {

    static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");

    private DataDir() {}

    /** Creates {@code dir} owner-only, or makes an existing one owner-only. */
    public static void prepare(Path dir) {
        try {
            Files.createDirectories(dir);
            setPermissions(dir, OWNER_DIR);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the data dir " + dir, e);
        }
    }

    /**
     * Makes everything under {@code dir} owner-only: directories 0700, files 0600. The store's
     * files were created with the process umask, and data dirs of earlier versions had Lucene
     * directories of 0755 with 0644 files (Lucene's files are created owner-only since issue 40).
     */
    public static void restrictFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.forEach(
                    p -> {
                        try {
                            setPermissions(p, Files.isDirectory(p) ? OWNER_DIR : OWNER_FILE);
                        } catch (NoSuchFileException e) {
                            // deleted meanwhile (a Lucene merge): nothing left to restrict
                        } catch (IOException e) {
                            throw new UncheckedIOException("cannot restrict " + p, e);
                        }
                    });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the data dir " + dir, e);
        }
    }

    /** Makes {@code file} readable by its owner only. */
    public static void restrict(Path file) {
        try {
            setPermissions(file, OWNER_FILE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restrict " + file, e);
        }
    }

    private static void setPermissions(Path path, Set<PosixFilePermission> permissions)
            throws IOException {
        try {
            Files.setPosixFilePermissions(path, permissions);
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: its own access control applies
        }
    }
}
