package dev.cairn.retrieval.store;

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
        var migrations = Migrations.load("testing", Map.of("greeting", "hello"));

        assertThat(migrations).extracting(Migrations.Migration::version).containsExactly(1, 2);
        assertThat(Migrations.apply(c, migrations)).isEqualTo(2);
        assertThat(Migrations.apply(c, migrations)).isZero();
        assertThat(query("SELECT name FROM first_table")).isEqualTo("hello");
        assertThat(query("SELECT count(*) FROM second_table")).isEqualTo("1");
        assertThat(query("SELECT group_concat(version || ':' || name) FROM schema_migrations"))
                .isEqualTo("1:first,2:second");
    }

    @Test
    void appliesOnlyTheNewMigrationToAnOlderSchema() throws SQLException {
        var all = Migrations.load("testing", Map.of("greeting", "hi"));
        Migrations.apply(c, all.subList(0, 1));

        assertThat(Migrations.apply(c, all)).isEqualTo(1);
        assertThat(query("SELECT count(*) FROM schema_migrations")).isEqualTo("2");
    }

    @Test
    void anAppliedMigrationWhoseTextChangedFailsTheOpen() throws SQLException {
        var migrations = Migrations.load("testing", Map.of("greeting", "hi"));
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
        var migrations = Migrations.load("testing", Map.of("greeting", "hi"));
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE second_table (other TEXT)"); // V002 will collide
        }

        assertThatThrownBy(() -> Migrations.apply(c, migrations)).isInstanceOf(SQLException.class);

        assertThat(query("SELECT group_concat(version) FROM schema_migrations")).isEqualTo("1");
    }

    @Test
    void unknownPlaceholderAndUnorderedListAreIllegalState() {
        assertThatThrownBy(() -> Migrations.load("testing", Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("${greeting}");
        assertThatThrownBy(() -> Migrations.load("testing-unordered", Map.of("greeting", "x")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("out of order");
        assertThatThrownBy(() -> Migrations.load("no-such-dialect", Map.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("missing");
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
