package dev.cairn.memory.store;

import dev.cairn.store.PostgresTestDatabase;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import org.junit.jupiter.api.AfterEach;

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
