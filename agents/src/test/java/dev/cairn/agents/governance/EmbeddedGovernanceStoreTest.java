package dev.cairn.agents.governance;

import dev.cairn.store.Store;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The governance repositories on the embedded (SQLite) store. */
class EmbeddedGovernanceStoreTest extends GovernanceStoreContractTest {

    @TempDir Path temp;

    @Override
    protected Store openStore() {
        return Store.embedded(temp.resolve("data"));
    }
}
