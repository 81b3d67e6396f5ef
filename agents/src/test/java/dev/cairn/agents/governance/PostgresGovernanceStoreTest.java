package dev.cairn.agents.governance;

import dev.cairn.store.PostgresTestDatabase;
import dev.cairn.store.Store;
import org.junit.jupiter.api.AfterEach;

/** The governance repositories on PostgreSQL with pgvector, in a fresh schema per test. */
class PostgresGovernanceStoreTest extends GovernanceStoreContractTest {

    private PostgresTestDatabase database;

    @Override
    protected Store openStore() {
        database = PostgresTestDatabase.create();
        return Store.postgres(database.jdbcUrl());
    }

    @AfterEach
    void dropSchema() {
        if (store != null) {
            store.close();
            store = null;
        }
        if (database != null) {
            database.close();
        }
    }
}
