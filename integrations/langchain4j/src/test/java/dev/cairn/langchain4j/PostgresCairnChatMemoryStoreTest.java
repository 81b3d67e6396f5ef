package dev.cairn.langchain4j;

import dev.cairn.server.ServerSettings;
import dev.cairn.store.PostgresTestDatabase;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;

/** The chat memory store against a real server on PostgreSQL. */
class PostgresCairnChatMemoryStoreTest extends CairnChatMemoryStoreTest {

    private PostgresTestDatabase database;

    @Override
    ServerSettings settings(Path dataDir) {
        database = PostgresTestDatabase.create();
        return super.settings(dataDir).withDbUrl(database.jdbcUrl());
    }

    @AfterAll
    void dropSchema() {
        stop(); // before the schema goes: the server's pool and followers still use it
        if (database != null) {
            database.close();
        }
    }
}
