package dev.cairn.retrieval.store;

import dev.cairn.store.PostgresTestDatabase;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import org.junit.jupiter.api.AfterEach;

/**
 * The document repository contract on PostgreSQL with pgvector, in a fresh schema per test (see
 * {@link PostgresTestDatabase} for where the server comes from).
 */
class PostgresDocumentRepositoryTest extends DocumentRepositoryContractTest {

    private PostgresTestDatabase db;

    @Override
    protected Store open(StoreConfig config) {
        if (db == null) {
            db = PostgresTestDatabase.create();
        }
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
