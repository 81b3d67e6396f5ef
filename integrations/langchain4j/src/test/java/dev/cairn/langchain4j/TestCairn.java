package dev.cairn.langchain4j;

import dev.cairn.client.CairnClient;
import dev.cairn.retrieval.RetrievalConfig;
import dev.cairn.server.CairnServer;
import dev.cairn.server.ServerSettings;
import dev.cairn.store.PostgresTestDatabase;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real Cairn server on a random port for the tests (the embedded store, or PostgreSQL: a schema
 * of {@code CAIRN_TEST_PG_URL}'s database or Testcontainers), with an admin client of it.
 */
final class TestCairn implements AutoCloseable {

    static final String ADMIN = "langchain4j-test-admin-token-32-chars";

    final CairnClient client;
    private final CairnServer server;
    private final PostgresTestDatabase database;

    private TestCairn(CairnServer server, PostgresTestDatabase database) {
        this.server = server;
        this.database = database;
        this.client = CairnClient.of(URI.create("http://localhost:" + server.port()), ADMIN);
    }

    static TestCairn start(Path dataDir, boolean onPostgres) {
        ServerSettings settings =
                ServerSettings.defaults(dataDir)
                        .withPort(0)
                        .withAdminToken(ADMIN)
                        // a shared, slow test machine must not turn answers partial
                        .withRetrieval(
                                RetrievalConfig.defaults()
                                        .withTimeouts(
                                                Duration.ofSeconds(30),
                                                Duration.ofSeconds(30),
                                                Duration.ofSeconds(30)));
        PostgresTestDatabase database = onPostgres ? PostgresTestDatabase.create() : null;
        if (database != null) {
            settings = settings.withDbUrl(database.jdbcUrl());
        }
        return new TestCairn(CairnServer.start(settings), database);
    }

    /** The client, the server, then the schema (the server's pool still uses it until closed). */
    @Override
    public void close() {
        client.close();
        server.close();
        if (database != null) {
            database.close();
        }
    }
}
