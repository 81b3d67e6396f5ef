package dev.cairn.testsupport;

import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test class with one real Cairn server ({@link TestCairn}) for all its tests, started before the
 * first and closed after the last; a subclass whose {@link #onPostgres()} says yes runs the same
 * tests on PostgreSQL. JUnit runs a superclass's {@code @BeforeAll} first and its {@code AfterAll}
 * last, so a test class opens its clients in its own {@code @BeforeAll} (the server is up) and
 * closes them in its own {@code @AfterAll} (before the server goes).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class CairnServerTest {

    private TestCairn cairn;

    /** Whether the server runs on PostgreSQL; the {@code Postgres...} subclasses say yes. */
    protected boolean onPostgres() {
        return false;
    }

    @BeforeAll
    protected final void startCairn(@TempDir Path dataDir) {
        cairn = TestCairn.start(dataDir, onPostgres());
    }

    @AfterAll
    protected final void stopCairn() {
        if (cairn != null) {
            cairn.close();
        }
    }

    /** Where the server answers; its admin token is {@link TestCairn#ADMIN}. */
    protected final URI baseUri() {
        return cairn.baseUri();
    }
}
