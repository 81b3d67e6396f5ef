package dev.cairn.retrieval.store;

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
                                "SELECT version, count(*) FROM schema_migrations GROUP BY version")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(1);
            assertThat(rs.getInt(2)).isEqualTo(1);
        }
    }

    @Test
    void hnswIndexServesTheApproximateQueryShape() throws SQLException {
        fillRandom("vec", 2, 50, new java.util.Random(SEED));

        try (Connection c = DriverManager.getConnection(current().jdbcUrl());
                Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            // The planner picks a plain scan plus sort for a table this small; without a sort
            // the ordered HNSW scan is the only plan left, if the index serves this query shape.
            s.execute("SET LOCAL enable_sort = off");
            StringBuilder plan = new StringBuilder();
            try (ResultSet rs =
                    s.executeQuery(
                            "EXPLAIN SELECT id FROM chunks WHERE namespace = 'vec'"
                                    + " AND embedding IS NOT NULL ORDER BY embedding <=> '"
                                    + java.util.Arrays.toString(vector(1)).replace(" ", "")
                                    + "' LIMIT 10")) {
                while (rs.next()) {
                    plan.append(rs.getString(1)).append('\n');
                }
            }
            c.rollback();
            assertThat(plan.toString()).contains("chunks_embedding_hnsw");
        }
    }
}
