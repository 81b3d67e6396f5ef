package dev.cairn.springai;

/** {@link CairnChatMemoryRepositoryTest} against a real server on PostgreSQL. */
class PostgresCairnChatMemoryRepositoryTest extends CairnChatMemoryRepositoryTest {

    @Override
    protected boolean onPostgres() {
        return true;
    }
}
