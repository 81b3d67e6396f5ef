package dev.cairn.server;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The wall time of each phase of a start, for the one line a server logs when it is ready: {@code
 * ready in 3.1 s (phases: jvm 0.6 s, store 0.2 s, model 2.3 s, graph 0.4 s, ...)}. Phases may run
 * concurrently (the model loads while the store opens and the graph loads), so their times may add
 * up to more than the total; the total counts from the JVM's start. Thread-safe.
 */
public final class StartupPhases {

    private static final AtomicBoolean FIRST = new AtomicBoolean(true);

    private final long startNanos = System.nanoTime();
    private final long jvmMillis;
    private final List<String> phases = new ArrayList<>();

    /**
     * Phases counted from now. The first start in a JVM also counts what ran before it (JVM start,
     * command line) as its {@code jvm} phase; a later one (tests start many servers) counts from
     * here.
     */
    public StartupPhases() {
        this.jvmMillis = FIRST.getAndSet(false) ? jvmUptimeMillis() : 0;
    }

    /** Runs {@code work} as the phase {@code name} and records its wall time. */
    public <T> T time(String name, Supplier<T> work) {
        long start = System.nanoTime();
        try {
            return work.get();
        } finally {
            record(name, System.nanoTime() - start);
        }
    }

    /** As {@link #time(String, Supplier)}, for work without a result. */
    public void run(String name, Runnable work) {
        time(
                name,
                () -> {
                    work.run();
                    return null;
                });
    }

    /** Records a phase that took {@code nanos}, timed by the caller. */
    public synchronized void record(String name, long nanos) {
        phases.add(name + " " + seconds(nanos / 1_000_000));
    }

    /** Seconds since the JVM started. */
    public long totalMillis() {
        return jvmMillis + (System.nanoTime() - startNanos) / 1_000_000;
    }

    /** {@code ready in N s (phases: ...)}, the phases in the order they ended. */
    public synchronized String readyLine() {
        List<String> all = new ArrayList<>();
        all.add("jvm " + seconds(jvmMillis));
        all.addAll(phases);
        return "ready in " + seconds(totalMillis()) + " (phases: " + String.join(", ", all) + ")";
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.2f s", millis / 1000.0);
    }

    private static long jvmUptimeMillis() {
        try {
            return ManagementFactory.getRuntimeMXBean().getUptime();
        } catch (RuntimeException | LinkageError e) {
            return 0; // without java.management the jvm phase is not known
        }
    }
}
