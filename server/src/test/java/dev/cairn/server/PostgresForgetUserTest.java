package dev.cairn.server;

import dev.cairn.store.PostgresTestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link ForgetUserTest} on PostgreSQL: the data dir keeps only the Lucene directories, and a
 * {@code pg_dump} of the test schema must not hold the forgotten user's marker either (it must hold
 * the other user's). Needs {@code pg_dump} on the PATH or in {@code /usr/lib/postgresql/NN/bin}.
 */
class PostgresForgetUserTest extends ForgetUserTest {

    private PostgresTestDatabase database;

    @Override
    ServerSettings settings(Path dataDir) {
        database = PostgresTestDatabase.create();
        return super.settings(dataDir).withDbUrl(database.jdbcUrl());
    }

    /** Stops the server, then drops the schema it used. */
    @AfterEach
    @Override
    void stop() {
        try {
            super.stop();
        } finally {
            if (database != null) {
                database.close();
            }
        }
    }

    @Override
    List<byte[]> storeOutsideDataDir() {
        return List.of(dump());
    }

    /** A plain-text dump of the test schema. */
    private byte[] dump() {
        try {
            Path out = Files.createTempFile("cairn-forget", ".sql");
            try {
                PostgresTools.dump(database, "plain", out);
                return Files.readAllBytes(out);
            } finally {
                Files.deleteIfExists(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
