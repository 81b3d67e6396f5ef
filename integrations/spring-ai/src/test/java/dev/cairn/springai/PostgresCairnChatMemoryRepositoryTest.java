package dev.cairn.springai;

/** {@link CairnChatMemoryRepositoryTest} against a real server on PostgreSQL. */
class PostgresCairnChatMemoryRepositoryTest extends CairnChatMemoryRepositoryTest {

    @Override
    boolean onPostgres() {
        return true;
    }
}
