package dev.cairn.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.sqlite.SQLiteConfig;

/**
 * Backups of the embedded store: a consistent copy of {@code cairn.db} taken while servers read and
 * write it ({@code VACUUM INTO}, which reads one snapshot: every transaction committed before it
 * began is in the copy, none that committed after), with a manifest beside it and files the caller
 * names (copied before the store, so a derived snapshot among them is never ahead of it); and its
 * restore into a data dir. Stateless.
 */
public final class EmbeddedBackup {

    /** The manifest beside the copy. */
    public static final String MANIFEST = "backup.json";

    private static final String FORMAT = "cairn-embedded-backup";
    private static final int VERSION = 1;
    private static final ObjectMapper JSON =
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private EmbeddedBackup() {}

    /**
     * What a backup holds.
     *
     * @param takenAt when the copy began, ISO-8601 (its snapshot is at most this recent)
     * @param source the data dir it was taken from
     * @param lastChangeSeq the store's last change in the copy
     * @param instanceId the store's identity ({@link Store#instanceId()})
     * @param rows rows per table in the copy
     * @param bytes the copy's size
     */
    public record Manifest(
            String format,
            int version,
            String takenAt,
            String source,
            long lastChangeSeq,
            String instanceId,
            Map<String, Long> rows,
            long bytes,
            List<String> files) {}

    /**
     * Copies the store of {@code dataDir} into the new folder {@code dest}, whatever else has it
     * open, with those of {@code files} (names in the data dir) that exist; the folder appears
     * whole or not at all.
     *
     * @throws IllegalArgumentException when there is no store in {@code dataDir} or {@code dest}
     *     exists and is not an empty folder
     */
    public static Manifest take(Path dataDir, Path dest, List<String> files) {
        Path db = dataDir.resolve(EmbeddedStore.FILE_NAME);
        if (!Files.isRegularFile(db)) {
            throw new IllegalArgumentException("no embedded Cairn store in " + dataDir);
        }
        requireEmptyOrMissing(dest);
        Path partial = dest.resolveSibling(dest.getFileName() + ".partial");
        try {
            deleteTree(partial);
            Files.createDirectories(partial);
            Path copy = partial.resolve(EmbeddedStore.FILE_NAME);
            // the files first: a derived snapshot among them (the entity graph's) must not be
            // newer than the store's copy, or it would hold changes the restored store lacks
            List<String> copied = new ArrayList<>();
            for (String name : files) {
                Path file = dataDir.resolve(name);
                if (Files.isRegularFile(file)) {
                    Files.copy(file, partial.resolve(name), StandardCopyOption.COPY_ATTRIBUTES);
                    copied.add(name);
                }
            }
            String takenAt = Instant.now().toString();
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db, readOnly());
                    PreparedStatement ps = c.prepareStatement("VACUUM INTO ?")) {
                ps.setString(1, copy.toString());
                ps.execute();
            }
            Manifest manifest =
                    describe(copy, takenAt, dataDir.toAbsolutePath().toString(), copied);
            JSON.writeValue(partial.resolve(MANIFEST).toFile(), manifest);
            if (Files.isDirectory(dest)) {
                Files.delete(dest);
            }
            Files.move(partial, dest, StandardCopyOption.ATOMIC_MOVE);
            return manifest;
        } catch (SQLException e) {
            throw new StoreException("cannot back up " + db + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new StoreException("cannot write the backup " + dest + ": " + e.getMessage(), e);
        } finally {
            try {
                deleteTree(partial);
            } catch (IOException ignored) {
                // best effort: a leftover .partial folder is replaced by the next backup
            }
        }
    }

    /**
     * Reads a backup's manifest after checking that its copy is whole ({@code PRAGMA
     * integrity_check}) and holds what the manifest says.
     *
     * @throws IllegalArgumentException when {@code backup} is not a whole backup
     */
    public static Manifest check(Path backup) {
        Path copy = backup.resolve(EmbeddedStore.FILE_NAME);
        Path manifestFile = backup.resolve(MANIFEST);
        if (!Files.isRegularFile(copy) || !Files.isRegularFile(manifestFile)) {
            throw new IllegalArgumentException(
                    "not a Cairn backup: "
                            + backup
                            + " must hold "
                            + EmbeddedStore.FILE_NAME
                            + " and "
                            + MANIFEST);
        }
        Manifest manifest;
        try {
            manifest = JSON.readValue(manifestFile.toFile(), Manifest.class);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "not a Cairn backup: "
                            + manifestFile
                            + " is unreadable ("
                            + e.getMessage()
                            + ")");
        }
        if (!FORMAT.equals(manifest.format()) || manifest.version() != VERSION) {
            throw new IllegalArgumentException(
                    "not a Cairn backup this version reads: "
                            + manifestFile
                            + " says "
                            + manifest.format()
                            + " version "
                            + manifest.version());
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy, readOnly());
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA integrity_check")) {
            String verdict = rs.next() ? rs.getString(1) : "no answer";
            if (!"ok".equals(verdict)) {
                throw new IllegalArgumentException(
                        "the backup " + copy + " is damaged: " + verdict);
            }
        } catch (SQLException e) {
            throw new IllegalArgumentException(
                    "the backup " + copy + " is not a readable database: " + e.getMessage());
        }
        Map<String, Long> rows =
                describe(copy, manifest.takenAt(), manifest.source(), manifest.files()).rows();
        for (String name : manifest.files()) {
            if (!Files.isRegularFile(backup.resolve(name))) {
                throw new IllegalArgumentException(
                        "the backup " + backup + " lacks " + name + ", which its manifest lists");
            }
        }
        if (!rows.equals(manifest.rows())) {
            throw new IllegalArgumentException(
                    "the backup " + backup + " holds other rows than its manifest says");
        }
        return manifest;
    }

    /**
     * Puts the backup's store and files into {@code dataDir} ({@link #check}ed first); the data
     * dir's old store file and its WAL go. Whoever calls it removes the data dir's derived indexes.
     *
     * @throws IllegalArgumentException when the backup is not whole, or {@code dataDir} holds a
     *     store and {@code replace} is false
     */
    public static Manifest restore(Path backup, Path dataDir, boolean replace) {
        Manifest manifest = check(backup);
        Path db = dataDir.resolve(EmbeddedStore.FILE_NAME);
        if (Files.exists(db) && !replace) {
            throw new IllegalArgumentException(
                    dataDir
                            + " already holds a Cairn store; restore into another data dir, or pass"
                            + " --replace to overwrite it (what it holds now is lost)");
        }
        try {
            Files.createDirectories(dataDir);
            Path incoming = dataDir.resolve(EmbeddedStore.FILE_NAME + ".restoring");
            Files.copy(
                    backup.resolve(EmbeddedStore.FILE_NAME),
                    incoming,
                    StandardCopyOption.REPLACE_EXISTING);
            for (String suffix : List.of("-wal", "-shm", "-journal")) {
                Files.deleteIfExists(dataDir.resolve(EmbeddedStore.FILE_NAME + suffix));
            }
            Files.move(
                    incoming,
                    db,
                    StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            for (String name : manifest.files()) {
                Files.copy(
                        backup.resolve(name),
                        dataDir.resolve(name),
                        StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.COPY_ATTRIBUTES);
            }
        } catch (IOException e) {
            throw new StoreException("cannot restore into " + dataDir + ": " + e.getMessage(), e);
        }
        return manifest;
    }

    private static Manifest describe(Path copy, String takenAt, String source, List<String> files) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy, readOnly())) {
            List<String> tables = new ArrayList<>();
            try (Statement st = c.createStatement();
                    ResultSet rs =
                            st.executeQuery(
                                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name"
                                            + " NOT LIKE 'sqlite_%' ORDER BY name")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            Map<String, Long> rows = new TreeMap<>();
            for (String table : tables) {
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT count(*) FROM \"" + table + "\"")) {
                    rs.next();
                    rows.put(table, rs.getLong(1));
                }
            }
            long seq;
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT coalesce(max(seq), 0) FROM changes")) {
                rs.next();
                seq = rs.getLong(1);
            }
            String instance;
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT id FROM store_instance")) {
                instance = rs.next() ? rs.getString(1) : "";
            }
            return new Manifest(
                    FORMAT,
                    VERSION,
                    takenAt,
                    source,
                    seq,
                    instance,
                    rows,
                    Files.size(copy),
                    List.copyOf(files));
        } catch (SQLException | IOException e) {
            throw new StoreException("cannot read the backup " + copy + ": " + e.getMessage(), e);
        }
    }

    private static java.util.Properties readOnly() {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(10_000);
        return config.toProperties();
    }

    private static void requireEmptyOrMissing(Path dest) {
        if (!Files.exists(dest)) {
            return;
        }
        try (var entries = Files.list(dest)) {
            if (!Files.isDirectory(dest) || entries.findAny().isPresent()) {
                throw new IllegalArgumentException(
                        dest + " exists and is not an empty folder; name a new one");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(dest + " exists and is not an empty folder");
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
