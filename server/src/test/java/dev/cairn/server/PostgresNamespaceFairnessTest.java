package dev.cairn.server;

import dev.cairn.store.PostgresTestDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The namespace fairness tests against a server on PostgreSQL with pgvector. */
class PostgresNamespaceFairnessTest extends NamespaceFairnessTest {

    private final List<PostgresTestDatabase> databases = new ArrayList<>();

    @BeforeEach
    void requireDatabase() {
        PostgresTestDatabase.assumeAvailable();
    }

    @Override
    ServerSettings settings(Path dataDir) {
        PostgresTestDatabase database = PostgresTestDatabase.create();
        databases.add(database);
        return super.settings(dataDir).withDbUrl(database.jdbcUrl());
    }

    @AfterEach
    void dropSchemas() {
        databases.forEach(PostgresTestDatabase::close);
        databases.clear();
    }
}
