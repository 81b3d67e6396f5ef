package dev.cairn.client;

/** Every call of the client against a real server on PostgreSQL. */
class PostgresCairnClientEndToEndTest extends CairnClientEndToEndTest {

    @Override
    protected boolean onPostgres() {
        return true;
    }

    @Override
    String storeKind() {
        return "postgres";
    }
}
