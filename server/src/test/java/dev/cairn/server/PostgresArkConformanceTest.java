package dev.cairn.server;

import dev.cairn.store.PostgresTestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/** The ARK conformance test against a server on PostgreSQL with pgvector. */
class PostgresArkConformanceTest extends ArkConformanceTest {

    private PostgresTestDatabase database;

    @Override
    ServerSettings settings(Path dataDir) {
        if (!PostgresTestDatabase.available()) {
            // each test skips (or fails) on its own, so it is counted; the embedded server the
            // base class starts meanwhile answers nothing
            return super.settings(dataDir);
        }
        database = PostgresTestDatabase.create();
        return super.settings(dataDir).withDbUrl(database.jdbcUrl());
    }

    @BeforeEach
    void requireDatabase() {
        PostgresTestDatabase.assumeAvailable();
    }

    @AfterAll
    void dropSchema() {
        if (database != null) {
            database.close();
        }
    }
}
