package dev.cairn.store;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Versioned schema migrations contributed by the modules on the class path ({@link Schema}, found
 * with {@link ServiceLoader}): SQL resources {@code <resourceRoot><dialect>/V<nnn>__<name>.sql}.
 * Versions form one sequence across modules; each migration runs in its own transaction, in version
 * order, and is recorded in {@code schema_migrations} with the checksum of its text. An applied
 * migration whose text has changed fails the open, unless the new text names the old checksum in a
 * line {@code -- previous-checksum: <sha-256>} (how a migration is split between modules without
 * breaking databases that applied it whole). Placeholders {@code ${name}} are substituted before
 * running. Statements are separated by a {@code ;} at the end of a line.
 *
 * <p>Versions are never renumbered or reused: databases record the versions they applied. V012 was
 * skipped when V013 was added (no V012 ever existed) and stays unused: renumbering V013 and V014
 * would make databases that recorded them apply them again, and a new V012 would run in existing
 * databases after V013 and V014 but before them in new ones. New migrations take the next version
 * after the highest. An open logs one line, {@link #summary}.
 *
 * <p>The caller serialises concurrent runners (PostgreSQL: an advisory lock; SQLite: immediate
 * transactions, re-checked inside). Stateless and thread-safe.
 */
final class Migrations {

    private static final System.Logger LOG = System.getLogger(Migrations.class.getName());
    private static final Pattern FILE = Pattern.compile("V(\\d{3,})__([a-z0-9_]+)\\.sql");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([a-zA-Z0-9_]+)}");
    private static final Pattern PREVIOUS_CHECKSUM =
            Pattern.compile("(?m)^-- previous-checksum: ([0-9a-f]{64})\\s*$");

    /**
     * One migration, its text with placeholders substituted.
     *
     * @param accepted checksums an applied copy may have: this text's and earlier texts' it names
     */
    record Migration(
            int version,
            String name,
            String module,
            String sql,
            String checksum,
            Set<String> accepted) {}

    private Migrations() {}

    /** The migrations of every {@link Schema} on the class path for a dialect, in version order. */
    static List<Migration> load(String dialect, Map<String, String> placeholders) {
        List<Schema> schemas = new ArrayList<>();
        ServiceLoader.load(Schema.class, Migrations.class.getClassLoader()).forEach(schemas::add);
        return load(schemas, dialect, placeholders);
    }

    /** The migrations of {@code schemas} for a dialect, in version order. */
    static List<Migration> load(
            List<Schema> schemas, String dialect, Map<String, String> placeholders) {
        Map<Integer, Migration> byVersion = new TreeMap<>();
        for (Schema schema : schemas) {
            for (String file : schema.migrations()) {
                Matcher m = FILE.matcher(file);
                if (!m.matches()) {
                    throw new IllegalStateException(
                            "illegal migration file name in module "
                                    + schema.module()
                                    + ": '"
                                    + file
                                    + "', must match "
                                    + FILE.pattern());
                }
                String text = resource(schema, schema.resourceRoot() + dialect + "/" + file);
                String checksum = Sha256.hex(text);
                Set<String> accepted = new LinkedHashSet<>();
                accepted.add(checksum);
                Matcher previous = PREVIOUS_CHECKSUM.matcher(text);
                while (previous.find()) {
                    accepted.add(previous.group(1));
                }
                Migration migration =
                        new Migration(
                                Integer.parseInt(m.group(1)),
                                m.group(2),
                                schema.module(),
                                substitute(text, placeholders, file),
                                checksum,
                                Set.copyOf(accepted));
                Migration clash = byVersion.putIfAbsent(migration.version(), migration);
                if (clash != null) {
                    throw new IllegalStateException(
                            "migration version V"
                                    + migration.version()
                                    + " is claimed twice: "
                                    + clash.module()
                                    + "'s "
                                    + clash.name()
                                    + " and "
                                    + migration.module()
                                    + "'s "
                                    + migration.name());
                }
            }
        }
        return List.copyOf(byVersion.values());
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
        long start = System.nanoTime();
        int applied = 0;
        for (Migration m : migrations) {
            c.setAutoCommit(false);
            try {
                String checksum = appliedChecksum(c, m.version());
                if (checksum != null) {
                    if (!m.accepted().contains(checksum)) {
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
                LOG.log(Level.DEBUG, "applied schema migration V{0}__{1}", m.version(), m.name());
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
        LOG.log(Level.INFO, summary(migrations, applied, (System.nanoTime() - start) / 1_000_000));
        return applied;
    }

    /**
     * The one line an open logs: {@code schema at V14 (applied 13 migrations in 85 ms)}, or {@code
     * schema at V14 (up to date)}. Each migration is logged at debug level.
     */
    static String summary(List<Migration> migrations, int applied, long millis) {
        String at =
                migrations.isEmpty()
                        ? "schema has no migrations"
                        : "schema at V" + migrations.getLast().version();
        if (applied == 0) {
            return at + " (up to date)";
        }
        return at
                + " (applied "
                + applied
                + (applied == 1 ? " migration" : " migrations")
                + " in "
                + millis
                + " ms)";
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

    private static String resource(Schema schema, String path) {
        try (InputStream in = schema.getClass().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(
                        "missing migration resource " + path + " of module " + schema.module());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
        } catch (IOException e) {
            throw new StoreException("cannot read migration resource " + path, e);
        }
    }
}
