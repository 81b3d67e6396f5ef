package dev.cairn.retrieval;

import dev.cairn.store.Store;

class EmbeddedKnowledgeBaseTest extends KnowledgeBaseContractTest {

    @Override
    Store openStore() {
        return Store.embedded(indexRoot.resolve("db"));
    }
}
