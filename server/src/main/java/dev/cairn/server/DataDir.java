package dev.cairn.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The data dir holds the embedded database, the indexes and token hashes: only the user running
 * Cairn may read it. The directory is created (or tightened) to 0700 and the files directly in it
 * to 0600; on a file system without POSIX permissions nothing is changed.
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

    /** Makes every regular file directly in {@code dir} readable by its owner only. */
    public static void restrictFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(Files::isRegularFile).forEach(f -> restrict(f));
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
