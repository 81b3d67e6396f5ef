package dev.cairn.retrieval.store;

import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * The document repository contract on the embedded (SQLite) store, in a fresh temp dir per test.
 */
class EmbeddedDocumentRepositoryTest extends DocumentRepositoryContractTest {

    @TempDir Path dataDir;

    @Override
    protected Store open(StoreConfig config) {
        return Store.embedded(dataDir, config);
    }
}
