package dev.cairn.server;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Bounded polling for what a real server does in the background. */
final class Waits {

    private Waits() {}

    /**
     * Returns once {@code condition} holds or {@code timeout} has passed, whichever is first; the
     * caller's assertions then say what was wrong.
     */
    static void until(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }
}
