package dev.cairn.judge.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.store.PostgresTestDatabase;
import dev.cairn.store.Store;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PostgresJudgementRepositoryTest extends JudgementRepositoryContractTest {

    static PostgresTestDatabase database;

    @BeforeAll
    static void database() {
        if (PostgresTestDatabase.available()) {
            database = PostgresTestDatabase.create();
        }
    }

    @AfterAll
    static void dropDatabase() {
        if (database != null) {
            database.close();
        }
    }

    @Override
    Store openStore() {
        PostgresTestDatabase.assumeAvailable();
        return Store.postgres(database.jdbcUrl());
    }

    /**
     * Forgetting a user finds the answers judged against the user's traces by trace id
     * (JudgementErasure's statement, as OneOf writes it on PostgreSQL): an index finds them, not a
     * read of every answer of the namespace per batch of ids (V025).
     */
    @Test
    void answersOfListedTracesAreFoundThroughAnIndex() {
        PostgresTestDatabase.assumeAvailable();
        String plan =
                database.planWithoutSequentialScans(
                        "SELECT id FROM answer_traces WHERE namespace = 'n' AND trace_id IN"
                                + " (SELECT unnest('{t1,t2}'::text[]))");
        assertThat(plan).contains("answer_traces_trace");
    }
}
