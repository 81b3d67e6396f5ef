package dev.cairn.langchain4j;

/** {@link CairnChatMemoryStoreTest} against a real server on PostgreSQL. */
class PostgresCairnChatMemoryStoreTest extends CairnChatMemoryStoreTest {

    @Override
    protected boolean onPostgres() {
        return true;
    }
}
