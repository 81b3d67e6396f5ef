package dev.cairn.retrieval.search;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.retrieval.SignalOutcome;
import dev.cairn.retrieval.dense.UnitVectors;
import dev.cairn.retrieval.fusion.FusedCandidate;
import dev.cairn.retrieval.fusion.Fusion;
import dev.cairn.retrieval.fusion.Normalization;
import dev.cairn.retrieval.fusion.ScoredId;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import dev.cairn.store.vector.VectorHit;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HybridSearchTest {

    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HybridSearch search = HybridSearch.on(executor);

    @AfterEach
    void close() {
        executor.shutdownNow();
    }

    @Test
    void fusesTheSignalsThatAnsweredAndSaysHowEachFared() {
        Map<Signal, SignalTask> tasks = new EnumMap<>(Signal.class);
        tasks.put(Signal.LEXICAL, () -> Ranking.of(List.of(new ScoredId("a", 3))));
        tasks.put(
                Signal.DENSE,
                () -> Ranking.of(List.of(new ScoredId("b", 0.9), new ScoredId("a", 0.5))));
        SignalWeights weights = SignalWeights.of(1, 1, 1);

        SignalRun run = search.run(tasks, weights);
        List<FusedCandidate> fused = run.fuse(Fusion.weightedRrf(), weights);

        assertThat(fused).extracting(FusedCandidate::id).containsExactly("a", "b");
        assertThat(fused.getFirst().rank(Signal.LEXICAL)).hasValue(1);
        assertThat(fused.getFirst().rank(Signal.DENSE)).hasValue(2);
        assertThat(run.outcome(Signal.LEXICAL).status()).isEqualTo(SignalOutcome.Status.OK);
        assertThat(run.outcome(Signal.DENSE).returned()).isEqualTo(2);
        assertThat(run.outcome(Signal.GRAPH).status()).isEqualTo(SignalOutcome.Status.SKIPPED);
        assertThat(run.outcome(Signal.GRAPH).detail()).isEqualTo("no graph signal is configured");
    }

    @Test
    void aLateSignalTimesOutAndAFailingOneFailsWithoutSinkingTheOthers() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Map<Signal, SignalTask> tasks = new EnumMap<>(Signal.class);
        tasks.put(Signal.LEXICAL, () -> Ranking.of(List.of(new ScoredId("a", 1))));
        tasks.put(
                Signal.DENSE,
                () -> {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException("interrupted", e);
                    }
                    return Ranking.of(List.of());
                });
        tasks.put(
                Signal.GRAPH,
                () -> {
                    throw new IllegalStateException("broken");
                });

        SignalRun run =
                search.run(
                        tasks,
                        SignalWeights.DEFAULTS,
                        Map.of(Signal.DENSE, Duration.ofMillis(50)),
                        System.nanoTime());
        release.countDown();

        assertThat(run.answered()).containsOnlyKeys(Signal.LEXICAL);
        assertThat(run.timedOut(Signal.DENSE)).isTrue();
        assertThat(run.outcome(Signal.GRAPH).status()).isEqualTo(SignalOutcome.Status.FAILED);
        assertThat(run.failures().get(Signal.GRAPH)).hasMessage("broken");
    }

    @Test
    void completionGivesTheDenseSignalTheCosinesOfLexicalCandidates() {
        Map<String, float[]> vectors =
                Map.of(
                        "a", new float[] {1, 0},
                        "b", new float[] {0.6f, 0.8f},
                        "c", new float[] {0, 1});
        float[] query = {1, 0};
        Map<Signal, SignalTask> tasks = new EnumMap<>(Signal.class);
        tasks.put(
                Signal.LEXICAL,
                () -> Ranking.of(List.of(new ScoredId("c", 4), new ScoredId("x", 2))));
        tasks.put(
                Signal.DENSE,
                () ->
                        Ranking.dense(
                                List.of(new VectorHit("a", 1.0)),
                                query,
                                UnitVectors.COSINE,
                                vectors::get));

        SignalRun run = search.run(tasks, SignalWeights.of(1, 1, 0)).completed();

        // "c" is scored by the dense signal after its own entries; "x" has no vector
        assertThat(run.rankings().get(Signal.DENSE))
                .containsExactly(new ScoredId("a", 1.0), new ScoredId("c", 0.0));
        List<FusedCandidate> fused =
                run.fuse(Fusion.convex(Normalization.MAX_SCALED), SignalWeights.of(1, 1, 0));
        assertThat(fused).extracting(FusedCandidate::id).containsExactly("a", "c", "x");
        assertThat(fused.get(1).score(Signal.DENSE)).hasValue(0.0);
        assertThat(fused.get(2).score(Signal.DENSE)).isEmpty();
    }
}
