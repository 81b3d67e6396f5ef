package dev.cairn.memory.service;

import dev.cairn.store.PostgresTestDatabase;
import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;

/** {@link MemoryAdaptationTest} on PostgreSQL. */
class PostgresMemoryAdaptationTest extends MemoryAdaptationTest {

    private PostgresTestDatabase db;

    @Override
    Store openStore(Path dir) {
        db = PostgresTestDatabase.create();
        return Store.postgres(db.jdbcUrl(), StoreConfig.defaults().withDimensions(DIMS));
    }

    /** Closes the service and the store, then drops the schema. */
    @AfterEach
    @Override
    void close() {
        try {
            super.close();
        } finally {
            if (db != null) {
                db.close();
            }
        }
    }
}
