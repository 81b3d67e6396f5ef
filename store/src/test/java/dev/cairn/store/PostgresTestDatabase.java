package dev.cairn.store;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A fresh, empty PostgreSQL schema with pgvector for one test (class), dropped on {@link #close()}.
 * Where the server comes from, in order:
 *
 * <ol>
 *   <li>Docker available: a {@value #IMAGE} Testcontainers container, started once per JVM;
 *   <li>else the JDBC URL in the environment variable {@value #URL_ENV} (e.g. the last line of
 *       {@code scripts/setup-postgres.sh}); the database needs the {@code vector} extension or the
 *       right to create it;
 *   <li>else the calling test is skipped (a JUnit assumption), or fails when the environment
 *       variable {@value #REQUIRE_ENV} is {@code 1} or {@code true}.
 * </ol>
 *
 * <p>Each instance creates its own schema ({@value #SCHEMA_PREFIX} + epoch seconds + random suffix;
 * schemas of runs that died are dropped after {@link #ABANDONED_AFTER}), and its {@link #jdbcUrl()}
 * points there (search path: that schema, then {@code public} for the extension), so test classes
 * and repeated runs against one database never see each other's rows. From another module, depend
 * on {@code cairn-retrieval} with {@code <type>test-jar</type>} and Testcontainers' {@code
 * postgresql} in test scope, then:
 *
 * <pre>{@code
 * try (var db = PostgresTestDatabase.create();
 *         Store store = Store.postgres(db.jdbcUrl())) {
 *     ...
 * }
 * }</pre>
 *
 * Thread-safe.
 */
public final class PostgresTestDatabase implements AutoCloseable {

    /** Testcontainers image: PostgreSQL 16 with pgvector. */
    public static final String IMAGE = "pgvector/pgvector:pg16";

    /** Environment variable with a JDBC URL used when Docker is not available. */
    public static final String URL_ENV = "CAIRN_TEST_PG_URL";

    /** Environment variable that turns "no PostgreSQL" from a skip into a failure. */
    public static final String REQUIRE_ENV = "CAIRN_REQUIRE_PG";

    /** Prefix of the schemas this class creates. */
    public static final String SCHEMA_PREFIX = "cairn_t_";

    /** A test schema older than this belongs to a run that died; the next run drops it. */
    public static final Duration ABANDONED_AFTER = Duration.ofHours(6);

    private static final Object LOCK = new Object();
    private static final java.util.concurrent.atomic.AtomicBoolean SKIP_REPORTED =
            new java.util.concurrent.atomic.AtomicBoolean();
    private static volatile Boolean docker;
    private static String baseUrl;
    private static PostgreSQLContainer<?> container;

    private final String schema;
    private final String jdbcUrl;
    private final String serverUrl;

    private PostgresTestDatabase(String serverUrl, String schema) {
        this.serverUrl = serverUrl;
        this.schema = schema;
        this.jdbcUrl =
                serverUrl
                        + (serverUrl.contains("?") ? "&" : "?")
                        + "currentSchema="
                        + URLEncoder.encode(schema + ",public", StandardCharsets.UTF_8);
    }

    /**
     * Creates a fresh schema; skips the calling test when no PostgreSQL is available (fails when
     * {@value #REQUIRE_ENV} is set).
     */
    public static PostgresTestDatabase create() {
        String server = serverUrl();
        long now = Instant.now().getEpochSecond();
        String schema =
                SCHEMA_PREFIX
                        + now
                        + "_"
                        + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = DriverManager.getConnection(server);
                Statement s = c.createStatement()) {
            s.execute("CREATE EXTENSION IF NOT EXISTS vector");
            dropAbandoned(s, now);
            s.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "cannot create test schema on " + redact(server) + ": " + e.getMessage(), e);
        }
        return new PostgresTestDatabase(server, schema);
    }

    /** Drops schemas left behind by runs that died more than {@link #ABANDONED_AFTER} ago. */
    private static void dropAbandoned(Statement s, long now) throws SQLException {
        List<String> abandoned = new ArrayList<>();
        try (ResultSet rs =
                s.executeQuery(
                        "SELECT nspname FROM pg_namespace WHERE nspname LIKE '"
                                + SCHEMA_PREFIX
                                + "%'")) {
            while (rs.next()) {
                String name = rs.getString(1);
                String[] parts = name.substring(SCHEMA_PREFIX.length()).split("_");
                try {
                    if (now - Long.parseLong(parts[0]) > ABANDONED_AFTER.toSeconds()) {
                        abandoned.add(name);
                    }
                } catch (NumberFormatException e) {
                    // not ours
                }
            }
        }
        for (String name : abandoned) {
            s.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE");
        }
    }

    /** Whether a PostgreSQL is available (Docker or {@value #URL_ENV}), without skipping. */
    public static boolean available() {
        return envUrl() != null || dockerAvailable();
    }

    /** The JDBC URL of this schema, for {@link Store#postgres(String)}. */
    public String jdbcUrl() {
        return jdbcUrl;
    }

    /** The schema name. */
    public String schema() {
        return schema;
    }

    /**
     * PostgreSQL's plan for {@code sql} in this schema with sequential scans disabled: the plan
     * names the index a statement can use, whatever the table's size (on a test's few rows the
     * planner would read the table instead). {@code sql} has no parameters.
     */
    public String planWithoutSequentialScans(String sql) {
        try (Connection c = DriverManager.getConnection(jdbcUrl);
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.execute("SET LOCAL enable_seqscan = off");
            StringBuilder plan = new StringBuilder();
            try (ResultSet rs = s.executeQuery("EXPLAIN " + sql)) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            c.rollback();
            return plan.toString();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot plan " + sql, e);
        }
    }

    /** Drops the schema and everything in it. */
    @Override
    public void close() {
        try (Connection c = DriverManager.getConnection(serverUrl);
                Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot drop test schema " + schema, e);
        }
    }

    @Override
    public String toString() {
        return "PostgresTestDatabase[" + redact(jdbcUrl) + "]";
    }

    private static String serverUrl() {
        synchronized (LOCK) {
            if (baseUrl != null) {
                return baseUrl;
            }
            if (dockerAvailable()) {
                container =
                        new PostgreSQLContainer<>(
                                DockerImageName.parse(IMAGE).asCompatibleSubstituteFor("postgres"));
                container.start(); // stopped by Testcontainers' reaper when the JVM exits
                String url = container.getJdbcUrl();
                baseUrl =
                        url
                                + (url.contains("?") ? "&" : "?")
                                + "user="
                                + URLEncoder.encode(container.getUsername(), StandardCharsets.UTF_8)
                                + "&password="
                                + URLEncoder.encode(
                                        container.getPassword(), StandardCharsets.UTF_8);
                return baseUrl;
            }
            String env = envUrl();
            if (env != null) {
                baseUrl = env;
                return baseUrl;
            }
        }
        skipOrFail();
        throw new AssertionError("unreachable");
    }

    /**
     * Skips the calling test when no PostgreSQL is available, or fails it when {@value
     * #REQUIRE_ENV} is set. A class whose tests share one database creates it in its BeforeAll
     * method only when {@link #available()}, and calls this before each test: an abort in BeforeAll
     * would skip the class as a whole, and its tests would appear in no count.
     */
    public static void assumeAvailable() {
        if (!available()) {
            skipOrFail();
        }
    }

    private static void skipOrFail() {
        String reason =
                "no PostgreSQL for tests: Docker is not available and "
                        + URL_ENV
                        + " is not set"
                        + " (scripts/setup-postgres.sh prints a URL)";
        if (required()) {
            Assertions.fail(reason + ", and " + REQUIRE_ENV + " requires PostgreSQL tests to run");
        }
        if (!SKIP_REPORTED.getAndSet(true)) {
            // surefire keeps a skip's reason in its XML report only; say it once on the console
            System.err.println("[cairn] PostgreSQL tests skipped: " + reason);
        }
        Assumptions.abort(reason);
    }

    private static String envUrl() {
        String url = System.getenv(URL_ENV);
        return url == null || url.isBlank() ? null : url.strip();
    }

    private static boolean required() {
        String value = System.getenv(REQUIRE_ENV);
        return value != null
                && (value.equals("1") || value.toLowerCase(Locale.ROOT).equals("true"));
    }

    private static boolean dockerAvailable() {
        Boolean known = docker;
        if (known == null) {
            try {
                known = DockerClientFactory.instance().isDockerAvailable();
            } catch (RuntimeException | LinkageError e) {
                known = false;
            }
            docker = known;
        }
        return known;
    }

    private static String redact(String url) {
        return url.replaceAll("password=[^&]*", "password=***");
    }
}
