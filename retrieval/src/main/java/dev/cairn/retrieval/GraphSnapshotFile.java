package dev.cairn.retrieval;

import dev.cairn.embeddings.AtomicReplace;
import dev.cairn.embeddings.CodeStamp;
import dev.cairn.graph.EntityGraph;
import dev.cairn.graph.GraphSnapshot;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32;

/**
 * The entity graph's snapshot on disk, so a restart loads the derived graph instead of extracting
 * it from every chunk again, then catches up from the change log past the snapshot's position.
 *
 * <p>Layout: magic {@code CAIRNKGS}, int32 version, the store's {@link
 * dev.cairn.store.Store#instanceId() instance id}, the code stamp, int64 the change sequence the
 * graph reflects, the API relations applied (count, then ids), the {@link GraphSnapshot} of the
 * graph; last an int64 CRC-32 of every byte before it. A snapshot is trusted only when all of these
 * hold: the checksum matches (not truncated or damaged), the version is this one, it was made from
 * this database (not one recreated under the same data dir, nor another PostgreSQL) by this build
 * of Cairn (extraction rules may have changed: a new jar re-derives the graph once), and its
 * position is not ahead of the store (a database restored from an older backup). Otherwise it is
 * ignored with one log line and the graph is rebuilt from the store.
 *
 * <p>Written whole to a temporary file, forced to disk and renamed over the old one, so a crash
 * while writing leaves the previous snapshot. Stateless apart from the path; thread-safe.
 */
final class GraphSnapshotFile {

    private static final System.Logger LOG = System.getLogger(GraphSnapshotFile.class.getName());

    /** Version of the layout above. */
    static final int VERSION = 1;

    private static final byte[] MAGIC =
            "CAIRNKGS".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** No snapshot: the graph is rebuilt at every open. */
    static final GraphSnapshotFile NONE = new GraphSnapshotFile(Path.of(""), "");

    private final Path file;
    private final String codeStamp;

    private GraphSnapshotFile(Path file, String codeStamp) {
        this.file = file;
        this.codeStamp = codeStamp;
    }

    /** The snapshot at {@code file}, stamped with the build of the running code. */
    static GraphSnapshotFile at(Path file) {
        return new GraphSnapshotFile(Objects.requireNonNull(file, "file"), CODE_STAMP);
    }

    /** The same file with another code stamp (a build that extracts differently). */
    GraphSnapshotFile stampedAs(String stamp) {
        return new GraphSnapshotFile(file, stamp);
    }

    Path file() {
        return file;
    }

    boolean enabled() {
        return this != NONE;
    }

    /**
     * A loaded snapshot.
     *
     * @param graph the graph as it was written
     * @param position the last change it reflects
     * @param apiRelations keys of the API relations applied to it
     */
    record Loaded(EntityGraph graph, long position, Set<String> apiRelations) {}

    /**
     * The snapshot, when there is one to trust for this store (see the class comment); logs one
     * line when there is a file that is not trusted.
     */
    Optional<Loaded> load(String instanceId, long lastChangeSeq) {
        if (!enabled()) {
            return Optional.empty();
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            return ignored("cannot be read: " + e.getMessage(), Level.WARNING);
        }
        try {
            return check(bytes, instanceId, lastChangeSeq);
        } catch (RuntimeException | IOException e) {
            // whatever a damaged file trips over, the graph is rebuilt rather than not opened
            return ignored("is damaged: " + e.getMessage(), Level.WARNING);
        }
    }

    private Optional<Loaded> check(byte[] bytes, String instanceId, long lastChangeSeq)
            throws IOException {
        if (bytes.length < MAGIC.length + Long.BYTES) {
            throw new IllegalArgumentException("only " + bytes.length + " bytes");
        }
        int body = bytes.length - Long.BYTES;
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, body);
        if (crc.getValue() != ByteBuffer.wrap(bytes, body, Long.BYTES).getLong()) {
            throw new IllegalArgumentException("checksum mismatch");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 0, body));
        byte[] magic = new byte[MAGIC.length];
        in.readFully(magic);
        if (!java.util.Arrays.equals(magic, MAGIC)) {
            throw new IllegalArgumentException("not an entity graph snapshot");
        }
        int version = in.readInt();
        if (version != VERSION) {
            return ignored("has version " + version + ", this build writes " + VERSION, Level.INFO);
        }
        String instance = in.readUTF();
        if (!instance.equals(instanceId)) {
            return ignored(
                    "was made from another database (store instance "
                            + instance
                            + ", this one is "
                            + instanceId
                            + ")",
                    Level.INFO);
        }
        String stamp = in.readUTF();
        if (!stamp.equals(codeStamp)) {
            return ignored("was made by another build of Cairn", Level.INFO);
        }
        long position = in.readLong();
        if (position > lastChangeSeq) {
            return ignored(
                    "is at change "
                            + position
                            + ", ahead of the store's last change "
                            + lastChangeSeq
                            + " (a database restored from a backup?)",
                    Level.WARNING);
        }
        int relationCount = in.readInt();
        if (relationCount < 0 || relationCount > body) {
            throw new IllegalArgumentException("illegal relation count " + relationCount);
        }
        Set<String> relations = new TreeSet<>();
        for (int i = 0; i < relationCount; i++) {
            relations.add(in.readUTF());
        }
        EntityGraph graph = GraphSnapshot.read(in);
        if (in.available() != 0) {
            throw new IllegalArgumentException(in.available() + " bytes after the graph");
        }
        return Optional.of(new Loaded(graph, position, relations));
    }

    private Optional<Loaded> ignored(String why, Level level) {
        LOG.log(
                level,
                "entity graph snapshot {0} {1}; rebuilding the graph from the store",
                file,
                why);
        return Optional.empty();
    }

    /**
     * Writes the snapshot (replacing the previous one once it is safely on disk). The caller keeps
     * the graph from changing meanwhile.
     *
     * @throws UncheckedIOException when it cannot be written (the previous one stays)
     */
    void save(EntityGraph graph, Set<String> apiRelations, String instanceId, long position) {
        if (!enabled()) {
            return;
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.deleteIfExists(tmp);
            createOwnerOnly(tmp);
            CRC32 crc = new CRC32();
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                OutputStream raw = java.nio.channels.Channels.newOutputStream(channel);
                DataOutputStream out =
                        new DataOutputStream(
                                new java.util.zip.CheckedOutputStream(
                                        new BufferedOutputStream(raw, 1 << 16), crc));
                out.write(MAGIC);
                out.writeInt(VERSION);
                out.writeUTF(instanceId);
                out.writeUTF(codeStamp);
                out.writeLong(position);
                out.writeInt(apiRelations.size());
                for (String key : new TreeSet<>(apiRelations)) {
                    out.writeUTF(key);
                }
                GraphSnapshot.write(graph, out);
                out.flush();
                // the checksum itself is not part of what it sums
                new DataOutputStream(raw).writeLong(crc.getValue());
                channel.force(true);
            }
            AtomicReplace.move(tmp, file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the entity graph snapshot " + file, e);
        }
    }

    private static void createOwnerOnly(Path path) throws IOException {
        try {
            Files.createFile(
                    path,
                    PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(path);
        }
    }

    /**
     * Which build of Cairn is running: the jar the graph module was loaded from, so a snapshot
     * derived by other extraction rules is not trusted after an upgrade.
     */
    static final String CODE_STAMP = CodeStamp.of(GraphSnapshot.class);
}
