package dev.cairn.server;

import dev.cairn.store.PostgresTestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;

/** Exact round trips against a server on PostgreSQL. */
class PostgresExactTextRoundTripTest extends ExactTextRoundTripTest {

    private PostgresTestDatabase database;

    @Override
    ServerSettings settings(Path dataDir) {
        database = PostgresTestDatabase.create();
        return super.settings(dataDir).withDbUrl(database.jdbcUrl());
    }

    @AfterAll
    void dropSchema() {
        if (database != null) {
            database.close();
        }
    }
}
