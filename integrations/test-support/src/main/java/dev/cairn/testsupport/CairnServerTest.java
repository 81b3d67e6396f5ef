package dev.cairn.testsupport;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test class with one real Cairn server ({@link TestCairn}) for all its tests, started before the
 * first and closed after the last; a subclass whose {@link #onPostgres()} says yes runs the same
 * tests on PostgreSQL. JUnit runs a superclass's {@code @BeforeAll} first, so a test class opens
 * its clients in its own {@code @BeforeAll} (the server is up) and hands them to {@link
 * #closedAfterAll}, which closes them after the last test, before the server goes; a class whose
 * server never started (no PostgreSQL: skipped) opened none and closes none.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class CairnServerTest {

    private TestCairn cairn;
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    /** Whether the server runs on PostgreSQL; the {@code Postgres...} subclasses say yes. */
    protected boolean onPostgres() {
        return false;
    }

    @BeforeAll
    protected final void startCairn(@TempDir Path dataDir) {
        cairn = TestCairn.start(dataDir, onPostgres());
    }

    @AfterAll
    protected final void stopCairn() throws Exception {
        try {
            while (!opened.isEmpty()) {
                opened.pop().close(); // the last opened first
            }
        } finally {
            if (cairn != null) {
                cairn.close();
            }
        }
    }

    /** {@code resource}, closed after the last test and before the server stops. */
    protected final <T extends AutoCloseable> T closedAfterAll(T resource) {
        opened.push(resource);
        return resource;
    }

    /** Where the server answers; its admin token is {@link TestCairn#ADMIN}. */
    protected final URI baseUri() {
        return cairn.baseUri();
    }
}
