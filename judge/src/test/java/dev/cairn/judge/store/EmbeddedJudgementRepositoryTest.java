package dev.cairn.judge.store;

import dev.cairn.store.Store;

class EmbeddedJudgementRepositoryTest extends JudgementRepositoryContractTest {

    @Override
    Store openStore() {
        return Store.embedded(dir.resolve("db"));
    }
}
