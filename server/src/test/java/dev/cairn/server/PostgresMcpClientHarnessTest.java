package dev.cairn.server;

import dev.cairn.store.PostgresTestDatabase;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;

/**
 * The MCP client harness against a server on PostgreSQL: HTTP, stdio forwarding, and {@code cairn
 * mcp --data --db-url} on the same database as the server (the inspector runs in the embedded
 * store's test only).
 */
class PostgresMcpClientHarnessTest extends McpClientHarnessTest {

    private PostgresTestDatabase database;

    @Override
    ServerSettings settings(Path dir) {
        database = PostgresTestDatabase.create();
        return super.settings(dir).withDbUrl(database.jdbcUrl());
    }

    @Override
    Map<String, String> extraTargets() {
        return Map.of(
                "CAIRN_TARGETS",
                "http,stdio-server,stdio-data",
                "CAIRN_STDIO_DATA",
                localDataDir.toString(),
                "CAIRN_STDIO_DB_URL",
                database.jdbcUrl(),
                "CAIRN_INSPECTOR",
                "0");
    }

    @AfterEach
    void dropSchema() {
        if (database != null) {
            database.close();
        }
    }
}
