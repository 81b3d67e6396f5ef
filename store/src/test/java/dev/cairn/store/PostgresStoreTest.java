package dev.cairn.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The store contract on PostgreSQL with pgvector, in a fresh schema per test (see {@link
 * PostgresTestDatabase} for where the server comes from).
 */
class PostgresStoreTest extends StoreContractTest {

    private final List<PostgresTestDatabase> databases = new ArrayList<>();

    @Override
    protected void newLocation() {
        databases.add(PostgresTestDatabase.create());
    }

    @Override
    protected Store open(StoreConfig config) {
        return Store.postgres(current().jdbcUrl(), config);
    }

    @Override
    protected Store.Kind expectedKind() {
        return Store.Kind.POSTGRES;
    }

    private PostgresTestDatabase current() {
        return databases.get(databases.size() - 1);
    }

    @AfterEach
    void dropSchemas() {
        if (store != null) {
            store.close();
            store = null;
        }
        databases.forEach(PostgresTestDatabase::close);
    }

    @Test
    void recordsEachMigrationOnceInSchemaMigrations() throws SQLException {
        store.close();
        store = open(config());

        try (Connection c = DriverManager.getConnection(current().jdbcUrl());
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT version, count(*) FROM schema_migrations GROUP BY version"
                                        + " ORDER BY version")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(1);
            assertThat(rs.getInt(2)).isEqualTo(1);
        }
    }
}
