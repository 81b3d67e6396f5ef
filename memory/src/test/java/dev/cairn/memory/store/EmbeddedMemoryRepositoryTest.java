package dev.cairn.memory.store;

import dev.cairn.store.Store;
import dev.cairn.store.StoreConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The memory repository contract on the embedded (SQLite) store. */
class EmbeddedMemoryRepositoryTest extends MemoryRepositoryContractTest {

    @TempDir Path temp;

    @Override
    protected Store open(StoreConfig config) {
        return Store.embedded(temp.resolve("data"), config);
    }
}
