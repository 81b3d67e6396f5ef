package dev.cairn.retrieval;

import dev.cairn.store.Store;

class EmbeddedGraphSnapshotTest extends GraphSnapshotContractTest {

    @Override
    Store openStore() {
        return Store.embedded(dir.resolve("data"));
    }
}
