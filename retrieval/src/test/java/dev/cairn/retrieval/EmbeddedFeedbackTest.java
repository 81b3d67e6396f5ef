package dev.cairn.retrieval;

import dev.cairn.store.Store;

class EmbeddedFeedbackTest extends FeedbackContractTest {

    @Override
    Store openStore() {
        return Store.embedded(indexRoot.resolve("data"));
    }
}
