package dev.cairn.springai;

/** {@link CairnVectorStoreTest} against a real server on PostgreSQL. */
class PostgresCairnVectorStoreTest extends CairnVectorStoreTest {

    @Override
    protected boolean onPostgres() {
        return true;
    }
}
