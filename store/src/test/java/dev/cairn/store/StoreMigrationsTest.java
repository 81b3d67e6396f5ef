package dev.cairn.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The migration runner, on an in-memory SQLite database and test resources. */
class StoreMigrationsTest {

    /** A module's schema from this test's resources. */
    record TestSchema(String module, List<String> migrations) implements Schema {
        @Override
        public String resourceRoot() {
            return "/dev/cairn/store/testing-schema/";
        }
    }

    private static final Schema FIRST_TWO =
            new TestSchema("first", List.of("V002__second.sql", "V001__first.sql"));
    private static final Schema THIRD = new TestSchema("third", List.of("V005__third.sql"));

    private static List<Migrations.Migration> load(Map<String, String> placeholders) {
        return Migrations.load(List.of(FIRST_TWO), "testing", placeholders);
    }

    private Connection c;

    @BeforeEach
    void open() throws SQLException {
        c = DriverManager.getConnection("jdbc:sqlite::memory:");
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    @Test
    void appliesPendingMigrationsInOrderOnce() throws SQLException {
        var migrations = load(Map.of("greeting", "hello"));

        assertThat(migrations).extracting(Migrations.Migration::version).containsExactly(1, 2);
        assertThat(Migrations.apply(c, migrations)).isEqualTo(2);
        assertThat(Migrations.apply(c, migrations)).isZero();
        assertThat(query("SELECT name FROM first_table")).isEqualTo("hello");
        assertThat(query("SELECT count(*) FROM second_table")).isEqualTo("1");
        assertThat(query("SELECT group_concat(version || ':' || name) FROM schema_migrations"))
                .isEqualTo("1:first,2:second");
    }

    @Test
    void anOpenLogsOneSummaryLineNotOneLinePerMigration() throws SQLException {
        var migrations = Migrations.load(List.of(FIRST_TWO, THIRD), "testing", GREETING);
        List<String> first = infoLines(() -> Migrations.apply(c, migrations));
        assertThat(first)
                .singleElement()
                .asString()
                .matches("schema at V5 \\(applied 3 migrations in \\d+ ms\\)");
        assertThat(infoLines(() -> Migrations.apply(c, migrations)))
                .containsExactly("schema at V5 (up to date)");
    }

    @Test
    void theSummaryCountsOneMigrationInTheSingular() {
        var migrations = Migrations.load(List.of(FIRST_TWO), "testing", GREETING);
        assertThat(Migrations.summary(migrations, 1, 7))
                .isEqualTo("schema at V2 (applied 1 migration in 7 ms)");
    }

    private static final Map<String, String> GREETING = Map.of("greeting", "hello");

    private interface SqlWork {
        void run() throws SQLException;
    }

    /** The INFO and higher lines the migration runner logs while {@code work} runs. */
    private static List<String> infoLines(SqlWork work) throws SQLException {
        java.util.logging.Logger logger =
                java.util.logging.Logger.getLogger(Migrations.class.getName());
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler handler =
                new java.util.logging.Handler() {
                    @Override
                    public void publish(java.util.logging.LogRecord record) {
                        if (record.getLevel().intValue()
                                >= java.util.logging.Level.INFO.intValue()) {
                            lines.add(
                                    java.text.MessageFormat.format(
                                            record.getMessage(), record.getParameters()));
                        }
                    }

                    @Override
                    public void flush() {}

                    @Override
                    public void close() {}
                };
        java.util.logging.Level was = logger.getLevel();
        logger.setLevel(java.util.logging.Level.ALL);
        logger.addHandler(handler);
        try {
            work.run();
        } finally {
            logger.removeHandler(handler);
            logger.setLevel(was);
        }
        return lines;
    }

    @Test
    void appliesOnlyTheNewMigrationToAnOlderSchema() throws SQLException {
        var all = load(Map.of("greeting", "hi"));
        Migrations.apply(c, all.subList(0, 1));

        assertThat(Migrations.apply(c, all)).isEqualTo(1);
        assertThat(query("SELECT count(*) FROM schema_migrations")).isEqualTo("2");
    }

    @Test
    void anAppliedMigrationWhoseTextChangedFailsTheOpen() throws SQLException {
        var migrations = load(Map.of("greeting", "hi"));
        Migrations.apply(c, migrations);
        try (Statement s = c.createStatement()) {
            s.execute("UPDATE schema_migrations SET checksum = 'edited' WHERE version = 2");
        }

        assertThatThrownBy(() -> Migrations.apply(c, migrations))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("V2__second");
    }

    @Test
    void aFailingMigrationIsRolledBackAndNotRecorded() throws SQLException {
        var migrations = load(Map.of("greeting", "hi"));
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE second_table (other TEXT)"); // V002 will collide
        }

        assertThatThrownBy(() -> Migrations.apply(c, migrations)).isInstanceOf(SQLException.class);

        assertThat(query("SELECT group_concat(version) FROM schema_migrations")).isEqualTo("1");
    }

    @Test
    void unknownPlaceholderDuplicateVersionAndMissingFileAreIllegalState() {
        assertThatThrownBy(() -> load(Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("${greeting}");
        Schema clash = new TestSchema("clash", List.of("V002__second.sql"));
        assertThatThrownBy(
                        () ->
                                Migrations.load(
                                        List.of(FIRST_TWO, clash),
                                        "testing",
                                        Map.of("greeting", "x")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("V2 is claimed twice: first's second and clash's second");
        assertThatThrownBy(() -> Migrations.load(List.of(FIRST_TWO), "no-such-dialect", Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("missing migration resource")
                .hasMessageContaining("module first");
    }

    @Test
    void aModuleAddedLaterAppliesItsMigrationsBetweenAppliedVersions() throws SQLException {
        Migrations.apply(c, Migrations.load(List.of(THIRD), "testing", Map.of()));
        var all = Migrations.load(List.of(THIRD, FIRST_TWO), "testing", Map.of("greeting", "hi"));

        assertThat(all).extracting(Migrations.Migration::version).containsExactly(1, 2, 5);
        assertThat(Migrations.apply(c, all)).isEqualTo(2);
        assertThat(
                        query(
                                "SELECT group_concat(version, ',') FROM (SELECT version FROM"
                                        + " schema_migrations ORDER BY version)"))
                .isEqualTo("1,2,5");
    }

    @Test
    void aMigrationAcceptsTheChecksumsOfTheTextsItNamesAsPrevious() throws SQLException {
        var third = Migrations.load(List.of(THIRD), "testing", Map.of());
        Migrations.apply(c, third);
        try (Statement s = c.createStatement()) {
            s.execute(
                    "UPDATE schema_migrations SET checksum = '"
                            + "0".repeat(61)
                            + "abc' WHERE version = 5");
        }
        assertThat(Migrations.apply(c, third)).isZero();

        try (Statement s = c.createStatement()) {
            s.execute("UPDATE schema_migrations SET checksum = 'other' WHERE version = 5");
        }
        assertThatThrownBy(() -> Migrations.apply(c, third))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("V5__third");
    }

    @Test
    void splitsStatementsAtLineEndSemicolonsAndDropsCommentLines() {
        assertThat(
                        Migrations.statements(
                                "-- c\nCREATE TABLE a (x TEXT DEFAULT ';');\n\nSELECT 1;\nSELECT 2"))
                .isEqualTo(List.of("CREATE TABLE a (x TEXT DEFAULT ';')", "SELECT 1", "SELECT 2"));
    }

    private String query(String sql) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
