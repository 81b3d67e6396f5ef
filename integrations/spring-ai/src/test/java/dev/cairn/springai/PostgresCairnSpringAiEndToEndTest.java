package dev.cairn.springai;

/** {@link CairnSpringAiEndToEndTest} against a real server on PostgreSQL. */
class PostgresCairnSpringAiEndToEndTest extends CairnSpringAiEndToEndTest {

    @Override
    protected boolean onPostgres() {
        return true;
    }
}
