package dev.cairn.client;

import dev.cairn.server.ServerSettings;
import dev.cairn.store.PostgresTestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;

/** Every call of the client against a real server on PostgreSQL. */
class PostgresCairnClientEndToEndTest extends CairnClientEndToEndTest {

    private PostgresTestDatabase database;

    @Override
    ServerSettings settings(Path dataDir) {
        database = PostgresTestDatabase.create();
        return super.settings(dataDir).withDbUrl(database.jdbcUrl());
    }

    @Override
    String storeKind() {
        return "postgres";
    }

    @AfterAll
    void dropSchema() {
        stop(); // before the schema goes: the server's pool and followers still use it
        if (database != null) {
            database.close();
        }
    }
}
