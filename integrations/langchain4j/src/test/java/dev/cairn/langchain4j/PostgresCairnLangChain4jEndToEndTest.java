package dev.cairn.langchain4j;

/** {@link CairnLangChain4jEndToEndTest} against a real server on PostgreSQL. */
class PostgresCairnLangChain4jEndToEndTest extends CairnLangChain4jEndToEndTest {

    @Override
    protected boolean onPostgres() {
        return true;
    }
}
