package dev.cairn.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.store.PostgresTestDatabase;
import dev.cairn.store.Store;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PostgresFeedbackTest extends FeedbackContractTest {

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
     * Forgetting a user deletes the judgments of the user's memories by target id
     * (FeedbackErasure's statement, as OneOf writes it on PostgreSQL): an index finds them, not a
     * read of every judgment of the namespace per batch of ids (V024).
     */
    @Test
    void judgmentsOfListedMemoriesAreFoundThroughAnIndex() {
        PostgresTestDatabase.assumeAvailable();
        String plan =
                database.planWithoutSequentialScans(
                        "DELETE FROM retrieval_feedback WHERE namespace = 'n' AND target_kind ="
                                + " 'MEMORY' AND target_id IN (SELECT unnest('{m1,m2}'::text[]))");
        assertThat(plan).contains("retrieval_feedback_target");
    }
}
