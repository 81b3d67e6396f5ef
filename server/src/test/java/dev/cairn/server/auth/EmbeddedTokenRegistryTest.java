package dev.cairn.server.auth;

import dev.cairn.store.Store;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The token registry contract on the embedded store, two stores opened on one data dir. */
class EmbeddedTokenRegistryTest extends TokenRegistryContractTest {

    @TempDir Path dirs;
    private Path dataDir;
    private int locations;

    @Override
    protected void newLocation() {
        dataDir = dirs.resolve("data-" + locations++);
    }

    @Override
    protected Store open() {
        return Store.embedded(dataDir);
    }
}
