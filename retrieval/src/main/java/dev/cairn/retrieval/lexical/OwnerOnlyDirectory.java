package dev.cairn.retrieval.lexical;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.Lock;

/**
 * A Lucene directory on disk that only its owner may read, like the rest of Cairn's data dir: the
 * directory is 0700 and every file Lucene creates in it is made 0600 before a byte is written to
 * it. Lucene creates files with the process's umask (0644 in directories of 0755 before issue 40),
 * and they hold the terms of memories and documents. On a file system without POSIX permissions
 * nothing is changed. Thread-safe as the directory it wraps.
 */
final class OwnerOnlyDirectory extends FilterDirectory {

    static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");

    private final Path path;

    private OwnerOnlyDirectory(FSDirectory in) {
        super(in);
        this.path = in.getDirectory();
    }

    /**
     * Opens {@code dir} as a Lucene directory, creating it (and missing parents) owner-only. (What
     * an earlier version left readable to others is tightened with the rest of the data dir when
     * the server starts.)
     */
    static Directory open(Path dir) throws IOException {
        createDirectories(dir);
        return new OwnerOnlyDirectory(FSDirectory.open(dir));
    }

    /** Creates {@code dir} and missing parents as 0700; an existing {@code dir} is made 0700. */
    static void createDirectories(Path dir) throws IOException {
        try {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
        } catch (UnsupportedOperationException e) {
            Files.createDirectories(dir);
        }
        setPermissions(dir, OWNER_DIR);
    }

    @Override
    public IndexOutput createOutput(String name, IOContext context) throws IOException {
        IndexOutput out = super.createOutput(name, context);
        setPermissions(path.resolve(name), OWNER_FILE);
        return out;
    }

    @Override
    public IndexOutput createTempOutput(String prefix, String suffix, IOContext context)
            throws IOException {
        IndexOutput out = super.createTempOutput(prefix, suffix, context);
        setPermissions(path.resolve(out.getName()), OWNER_FILE);
        return out;
    }

    @Override
    public Lock obtainLock(String name) throws IOException {
        Lock lock = super.obtainLock(name);
        setPermissions(path.resolve(name), OWNER_FILE); // empty, but no exception to the rule
        return lock;
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
