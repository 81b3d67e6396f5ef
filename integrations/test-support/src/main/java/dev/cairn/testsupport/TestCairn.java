package dev.cairn.testsupport;

import dev.cairn.retrieval.RetrievalConfig;
import dev.cairn.server.CairnServer;
import dev.cairn.server.ServerSettings;
import dev.cairn.store.PostgresTestDatabase;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real Cairn server on a random port for the tests (the embedded store, or PostgreSQL: a schema
 * of {@code CAIRN_TEST_PG_URL}'s database or Testcontainers), its admin token {@link #ADMIN}.
 * Answers are never partial: each signal may take 30 s on a slow, shared test machine. It knows no
 * client, so that the client's own tests can use it too.
 */
public final class TestCairn implements AutoCloseable {

    /** The admin token the server is started with. */
    public static final String ADMIN = "integration-test-admin-token-32-chars";

    private final CairnServer server;
    private final PostgresTestDatabase database;

    private TestCairn(CairnServer server, PostgresTestDatabase database) {
        this.server = server;
        this.database = database;
    }

    /** Starts a server keeping its files in {@code dataDir}, on PostgreSQL when asked. */
    public static TestCairn start(Path dataDir, boolean onPostgres) {
        ServerSettings settings =
                ServerSettings.defaults(dataDir)
                        .withPort(0)
                        .withAdminToken(ADMIN)
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

    /** Where the server answers: {@code http://localhost:<port>}. */
    public URI baseUri() {
        return URI.create("http://localhost:" + server.port());
    }

    /**
     * The server, then the schema (the server's pool still uses it until closed); close the clients
     * first.
     */
    @Override
    public void close() {
        server.close();
        if (database != null) {
            database.close();
        }
    }
}
