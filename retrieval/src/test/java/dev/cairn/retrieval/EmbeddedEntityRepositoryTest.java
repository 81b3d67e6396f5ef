package dev.cairn.retrieval;

import dev.cairn.store.Store;

class EmbeddedEntityRepositoryTest extends EntityRepositoryContractTest {

    @Override
    Store openStore() {
        return Store.embedded(indexRoot.resolve("data"));
    }
}
