package dev.cairn.server.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.LogManager;

/**
 * The JDK's log manager, except that at JVM shutdown it closes its handlers only once the server
 * has stopped. The JDK's own shutdown hook resets logging concurrently with the application's
 * hooks, so whatever a server logs while it stops ("stopping", "stopped in N ms", a failure to
 * close an index) was lost, and stopping looked like it logged nothing. Installed by {@link Main}
 * through {@code java.util.logging.manager} before anything logs. Thread-safe.
 */
public final class StoppingLogManager extends LogManager {

    /** Longest the shutdown waits for a stop before closing the handlers anyway. */
    static final long MAX_WAIT_SECONDS = 60;

    private static final CountDownLatch STOPPED = new CountDownLatch(1);
    private static volatile boolean holding;

    /** Called by the JDK when it is the configured log manager. */
    public StoppingLogManager() {}

    /**
     * Keeps the handlers open at shutdown until {@link #stopped()}: called when the shutdown hook
     * that stops the server is registered, so the JDK's hook cannot close them first.
     */
    static void holdUntilStopped() {
        holding = true;
    }

    /** Says that the stop is done: the handlers may close. */
    static void stopped() {
        STOPPED.countDown();
    }

    @Override
    public void reset() {
        if (holding && shuttingDown()) {
            try {
                STOPPED.await(MAX_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        super.reset();
    }

    /** Whether the JVM is running its shutdown hooks (it refuses new ones then). */
    private static boolean shuttingDown() {
        Thread probe = Thread.ofPlatform().unstarted(() -> {});
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }
}
