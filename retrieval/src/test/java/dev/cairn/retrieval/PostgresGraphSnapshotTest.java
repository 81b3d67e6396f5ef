package dev.cairn.retrieval;

import dev.cairn.store.PostgresTestDatabase;
import dev.cairn.store.Store;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

class PostgresGraphSnapshotTest extends GraphSnapshotContractTest {

    static PostgresTestDatabase database;

    @BeforeAll
    static void database() {
        if (PostgresTestDatabase.available()) {
            database = PostgresTestDatabase.create();
        }
    }

    @AfterAll
    static void dropDatabase() {
        if (database != null) {
            database.close();
        }
    }

    @Override
    Store openStore() {
        PostgresTestDatabase.assumeAvailable();
        return Store.postgres(database.jdbcUrl());
    }
}
