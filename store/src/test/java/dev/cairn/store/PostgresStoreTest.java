package dev.cairn.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.pgvector.PGvector;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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

    @Test
    void hnswIndexServesTheApproximateQueryButNotTheExactOne() throws SQLException {
        fillRandom("vec", 2, 50, new Random(SEED));

        // The planner picks a scan plus sort for a table this small; with sorting disabled, the
        // ordered HNSW scan wins wherever the index can serve the query.
        assertThat(plan(PostgresStore.APPROXIMATE_SQL)).contains("chunks_embedding_hnsw");
        assertThat(plan(PostgresStore.EXACT_SQL)).doesNotContain("hnsw");
    }

    private String plan(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(current().jdbcUrl())) {
            PGvector.registerTypes(c);
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SET LOCAL enable_sort = off");
            }
            StringBuilder plan = new StringBuilder();
            try (PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql)) {
                ps.setObject(1, new PGvector(vector(1)));
                ps.setString(2, "vec");
                ps.setObject(3, new PGvector(vector(1)));
                ps.setInt(4, 10);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        plan.append(rs.getString(1)).append('\n');
                    }
                }
            }
            c.rollback();
            return plan.toString();
        }
    }
}
