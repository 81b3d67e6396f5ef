package dev.cairn.server.auth;

import dev.cairn.store.PostgresTestDatabase;
import dev.cairn.store.Store;
import org.junit.jupiter.api.AfterEach;

/**
 * The token registry contract on PostgreSQL, in a fresh schema per test (see {@link
 * PostgresTestDatabase} for where the server comes from).
 */
class PostgresTokenRegistryTest extends TokenRegistryContractTest {

    private PostgresTestDatabase database;

    @Override
    protected void newLocation() {
        database = PostgresTestDatabase.create();
    }

    @Override
    protected Store open() {
        return Store.postgres(database.jdbcUrl());
    }

    @AfterEach
    void dropSchema() {
        closeStores();
        if (database != null) { // none without a PostgreSQL: the test was skipped
            database.close();
        }
    }
}
