package dev.cairn.retrieval.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on the embedded (SQLite) backend, in a fresh temp dir per test. */
class EmbeddedStoreTest extends StoreContractTest {

    @TempDir Path temp;
    private Path dataDir;
    private int locations;

    @Override
    protected void newLocation() {
        dataDir = temp.resolve("data-" + locations++);
    }

    @Override
    protected Store open(StoreConfig config) {
        return Store.embedded(dataDir, config);
    }

    @Override
    protected Store.Kind expectedKind() {
        return Store.Kind.EMBEDDED;
    }

    @Test
    void keepsItsRowsInOneSqliteFileInTheDataDir() {
        store.createNamespace("files", "");

        assertThat(dataDir.resolve(EmbeddedStore.FILE_NAME)).isRegularFile();
        assertThat(Files.exists(dataDir.resolve(EmbeddedStore.FILE_NAME + "-wal"))).isTrue();
    }
}
