package dev.cairn.memory.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.store.PostgresTestDatabase;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The memory repository contract on PostgreSQL with pgvector, in a fresh schema per test (skipped
 * without a database unless {@code CAIRN_REQUIRE_PG} is set).
 */
class PostgresMemoryRepositoryTest extends MemoryRepositoryContractTest {

    private PostgresTestDatabase db;

    @Override
    protected Store open(StoreConfig config) {
        db = PostgresTestDatabase.create();
        return Store.postgres(db.jdbcUrl(), config);
    }

    /**
     * Memory writes keep no vector index up to date: recall scans its resident table, and an HNSW
     * insert made each write tens of times slower (V023, docs/operations.md).
     */
    @Test
    void memoriesHaveNoVectorIndexToKeepUpToDate() {
        List<String> indexes =
                store.sql()
                        .read(
                                c -> {
                                    List<String> names = new java.util.ArrayList<>();
                                    try (var ps =
                                                    c.prepareStatement(
                                                            "SELECT indexname, indexdef FROM"
                                                                    + " pg_indexes WHERE tablename"
                                                                    + " = 'memories' AND"
                                                                    + " schemaname ="
                                                                    + " current_schema()");
                                            var rs = ps.executeQuery()) {
                                        while (rs.next()) {
                                            names.add(rs.getString(1) + " " + rs.getString(2));
                                        }
                                    }
                                    return names;
                                });

        assertThat(indexes).isNotEmpty().noneMatch(i -> i.contains("hnsw"));
    }

    @AfterEach
    void dropSchema() {
        if (store != null) {
            store.close();
            store = null;
        }
        if (db != null) {
            db.close();
        }
    }
}
