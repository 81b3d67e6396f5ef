package dev.cairn.retrieval.search;

import dev.cairn.retrieval.SignalOutcome;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** {@link HybridSearch#on}. Immutable. */
final class ConcurrentSearch implements HybridSearch {

    private final Executor executor;

    ConcurrentSearch(Executor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /** A signal's ranking and when it was ready, to hold it to its deadline. */
    private record Timed(Ranking ranking, long finishedAt) {}

    @Override
    public SignalRun run(
            Map<Signal, SignalTask> tasks,
            SignalWeights weights,
            Map<Signal, Duration> deadlines,
            long startedNanos) {
        Map<Signal, CompletableFuture<Timed>> running = new EnumMap<>(Signal.class);
        for (Map.Entry<Signal, SignalTask> e : tasks.entrySet()) {
            SignalTask task = e.getValue();
            running.put(
                    e.getKey(),
                    CompletableFuture.supplyAsync(
                            () -> new Timed(task.rank(), System.nanoTime()), executor));
        }
        Map<Signal, Ranking> answered = new EnumMap<>(Signal.class);
        List<SignalOutcome> outcomes = new ArrayList<>();
        Map<Signal, Throwable> failures = new EnumMap<>(Signal.class);
        for (Signal signal : Signal.values()) {
            CompletableFuture<Timed> future = running.get(signal);
            if (future == null) {
                String why =
                        weights.weight(signal) > 0
                                ? "no "
                                        + signal.name().toLowerCase(Locale.ROOT)
                                        + " signal is configured"
                                : "weight 0";
                outcomes.add(new SignalOutcome(signal, SignalOutcome.Status.SKIPPED, 0, 0, why));
                continue;
            }
            Duration deadline = deadlines.get(signal);
            try {
                Timed answer;
                if (deadline == null) {
                    answer = future.get();
                } else {
                    long remaining = deadline.toNanos() - (System.nanoTime() - startedNanos);
                    answer = future.get(Math.max(0, remaining), TimeUnit.NANOSECONDS);
                    if (answer.finishedAt() - startedNanos > deadline.toNanos()) {
                        throw new TimeoutException(); // answered, but after its deadline
                    }
                }
                answered.put(signal, answer.ranking());
                double ms = (answer.finishedAt() - startedNanos) / 1e6;
                outcomes.add(
                        new SignalOutcome(
                                signal,
                                SignalOutcome.Status.OK,
                                ms,
                                answer.ranking().entries().size(),
                                ""));
            } catch (TimeoutException e) {
                // Never interrupt a late signal: an interrupt closes Lucene's file channels.
                future.cancel(false);
                outcomes.add(
                        new SignalOutcome(
                                signal,
                                SignalOutcome.Status.TIMEOUT,
                                deadline.toMillis(),
                                0,
                                "no answer within " + deadline.toMillis() + " ms"));
            } catch (ExecutionException | CancellationException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                failures.put(signal, cause);
                outcomes.add(
                        new SignalOutcome(
                                signal,
                                SignalOutcome.Status.FAILED,
                                (System.nanoTime() - startedNanos) / 1e6,
                                0,
                                cause.getClass().getSimpleName()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while searching", e);
            }
        }
        return new SignalRun(answered, outcomes, failures);
    }

    @Override
    public String toString() {
        return "ConcurrentSearch[" + executor + "]";
    }
}
