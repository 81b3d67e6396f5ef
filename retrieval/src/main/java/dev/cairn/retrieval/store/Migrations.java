package dev.cairn.retrieval.store;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Versioned schema migrations: SQL resources {@code
 * dev/cairn/retrieval/store/<dialect>/V<nnn>__<name>.sql}, listed in order in the resource {@code
 * <dialect>/migrations.txt} of the same folder (one file name a line; add a file and a line to add
 * a migration). Each migration runs in its own transaction and is recorded in {@code
 * schema_migrations} with the checksum of its text; an applied migration whose text has changed
 * fails the open. Placeholders {@code ${name}} are substituted before running. Statements are
 * separated by a {@code ;} at the end of a line.
 *
 * <p>The caller serialises concurrent runners (PostgreSQL: an advisory lock; SQLite: immediate
 * transactions, re-checked inside). Stateless and thread-safe.
 */
final class Migrations {

    private static final System.Logger LOG = System.getLogger(Migrations.class.getName());
    private static final String ROOT = "/dev/cairn/retrieval/store/";
    private static final Pattern FILE = Pattern.compile("V(\\d{3,})__([a-z0-9_]+)\\.sql");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([a-zA-Z0-9_]+)}");

    /** One migration, its text with placeholders substituted. */
    record Migration(int version, String name, String sql, String checksum) {}

    private Migrations() {}

    /** The migrations of a dialect in version order. */
    static List<Migration> load(String dialect, Map<String, String> placeholders) {
        List<Matcher> files = new ArrayList<>();
        int last = 0;
        for (String line : resource(ROOT + dialect + "/migrations.txt").split("\n")) {
            String file = line.strip();
            if (file.isEmpty() || file.startsWith("#")) {
                continue;
            }
            Matcher m = FILE.matcher(file);
            if (!m.matches()) {
                throw new IllegalStateException(
                        "illegal migration file name: '"
                                + file
                                + "', must match "
                                + FILE.pattern());
            }
            int version = Integer.parseInt(m.group(1));
            if (version <= last) {
                throw new IllegalStateException(
                        "migration " + file + " out of order, must be > V" + last);
            }
            last = version;
            files.add(m);
        }
        List<Migration> out = new ArrayList<>();
        for (Matcher m : files) {
            String file = m.group();
            String text = resource(ROOT + dialect + "/" + file);
            out.add(
                    new Migration(
                            Integer.parseInt(m.group(1)),
                            m.group(2),
                            substitute(text, placeholders, file),
                            sha256(text)));
        }
        return List.copyOf(out);
    }

    /**
     * Applies the pending migrations on {@code c} (autocommit on entry and exit).
     *
     * @return how many were applied
     */
    static int apply(Connection c, List<Migration> migrations) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
                            + " name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)");
        }
        int applied = 0;
        for (Migration m : migrations) {
            c.setAutoCommit(false);
            try {
                String checksum = appliedChecksum(c, m.version());
                if (checksum != null) {
                    if (!checksum.equals(m.checksum())) {
                        throw new IllegalStateException(
                                "migration V"
                                        + m.version()
                                        + "__"
                                        + m.name()
                                        + " was applied with a different text (checksum "
                                        + checksum
                                        + ", now "
                                        + m.checksum()
                                        + ")");
                    }
                    c.commit();
                    continue;
                }
                try (Statement s = c.createStatement()) {
                    for (String statement : statements(m.sql())) {
                        s.execute(statement);
                    }
                }
                try (PreparedStatement ps =
                        c.prepareStatement(
                                "INSERT INTO schema_migrations (version, name, checksum, applied_at)"
                                        + " VALUES (?, ?, ?, ?)")) {
                    ps.setInt(1, m.version());
                    ps.setString(2, m.name());
                    ps.setString(3, m.checksum());
                    ps.setString(4, Instant.now().toString());
                    ps.executeUpdate();
                }
                c.commit();
                applied++;
                LOG.log(Level.INFO, "applied schema migration V{0}__{1}", m.version(), m.name());
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
        return applied;
    }

    private static String appliedChecksum(Connection c, int version) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT checksum FROM schema_migrations WHERE version = ?")) {
            ps.setInt(1, version);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** Splits on {@code ;} at line ends, dropping comment-only lines. */
    static List<String> statements(String sql) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : sql.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String statement = current.toString().strip();
                out.add(statement.substring(0, statement.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            out.add(current.toString().strip());
        }
        return out;
    }

    private static String substitute(String text, Map<String, String> placeholders, String file) {
        Map<String, String> values = new HashMap<>(placeholders);
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException(
                        "migration " + file + " uses unknown placeholder ${" + m.group(1) + "}");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static String resource(String path) {
        try (InputStream in = Migrations.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing migration resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
        } catch (IOException e) {
            throw new StoreException("cannot read migration resource " + path, e);
        }
    }

    static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256")
                                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
