package dev.cairn.retrieval.search;

import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Runs a query's signals concurrently, each held to its own deadline, and reports how each fared in
 * a {@link SignalRun}, which fuses the answers. A late signal is never interrupted (an interrupt
 * closes Lucene's file channels): its answer is dropped and the others' stand. Thread- safe; does
 * not own its executor.
 */
public interface HybridSearch {

    /** A search whose signals run on {@code executor} (virtual threads suit: signals wait). */
    static HybridSearch on(Executor executor) {
        return new ConcurrentSearch(executor);
    }

    /**
     * Runs {@code tasks} and waits for each until its deadline.
     *
     * @param weights the query's signal weights: a signal without a task is SKIPPED, as "weight 0"
     *     or, with a weight, as not configured
     * @param deadlines per signal, measured from {@code startedNanos}; a signal without one is
     *     waited for as long as it takes
     * @param startedNanos {@link System#nanoTime()} when the caller's request started
     * @throws IllegalStateException when the calling thread is interrupted while waiting
     */
    SignalRun run(
            Map<Signal, SignalTask> tasks,
            SignalWeights weights,
            Map<Signal, Duration> deadlines,
            long startedNanos);

    /** {@link #run} with no deadlines, started now. */
    default SignalRun run(Map<Signal, SignalTask> tasks, SignalWeights weights) {
        return run(tasks, weights, Map.of(), System.nanoTime());
    }
}
