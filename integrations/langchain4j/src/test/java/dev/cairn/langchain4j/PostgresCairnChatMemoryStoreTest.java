package dev.cairn.langchain4j;

/** {@link CairnChatMemoryStoreTest} against a real server on PostgreSQL. */
class PostgresCairnChatMemoryStoreTest extends CairnChatMemoryStoreTest {

    @Override
    boolean onPostgres() {
        return true;
    }
}
