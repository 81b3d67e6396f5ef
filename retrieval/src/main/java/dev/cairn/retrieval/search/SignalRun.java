package dev.cairn.retrieval.search;

import dev.cairn.retrieval.SignalOutcome;
import dev.cairn.retrieval.fusion.FusedCandidate;
import dev.cairn.retrieval.fusion.Fusion;
import dev.cairn.retrieval.fusion.ScoredId;
import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.fusion.SignalWeights;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a query's signals fared: the rankings of those that answered in time, one outcome per {@link
 * Signal} (OK, TIMEOUT, FAILED or SKIPPED, with its time), and the failures' causes.
 *
 * @param answered the ranking of each signal that answered in time
 * @param outcomes one per signal, in {@link Signal} order
 * @param failures the cause of each FAILED signal
 */
public record SignalRun(
        Map<Signal, Ranking> answered,
        List<SignalOutcome> outcomes,
        Map<Signal, Throwable> failures) {

    /** Completed entries rank after the signal's own, higher score first, then id. */
    private static final Comparator<ScoredId> BEST_FIRST =
            Comparator.comparingDouble(ScoredId::score).reversed().thenComparing(ScoredId::id);

    public SignalRun {
        answered = Collections.unmodifiableMap(copy(answered));
        outcomes = List.copyOf(outcomes);
        failures = Collections.unmodifiableMap(copy(failures));
        if (outcomes.size() != Signal.values().length) {
            throw new IllegalArgumentException(
                    "illegal outcomes: " + outcomes.size() + ", must be one per signal");
        }
    }

    private static <V> Map<Signal, V> copy(Map<Signal, V> map) {
        return map.isEmpty() ? new EnumMap<>(Signal.class) : new EnumMap<>(map);
    }

    /** The answered signals' entries, for {@link Fusion#fuse}. */
    public Map<Signal, List<ScoredId>> rankings() {
        Map<Signal, List<ScoredId>> out = new EnumMap<>(Signal.class);
        answered.forEach((s, r) -> out.put(s, r.entries()));
        return out;
    }

    /** The outcome of {@code signal}. */
    public SignalOutcome outcome(Signal signal) {
        return outcomes.get(signal.ordinal());
    }

    /** Whether {@code signal} had no answer within its deadline. */
    public boolean timedOut(Signal signal) {
        return outcome(signal).status() == SignalOutcome.Status.TIMEOUT;
    }

    /**
     * This run with each answered signal's ranking extended by its scores of the other signals'
     * candidates ({@link Ranking#scoresOf}), ranked after its own entries: a fusion of scores then
     * sees, say, the cosine of a BM25 candidate the dense scan did not keep.
     */
    public SignalRun completed() {
        Map<Signal, Ranking> out = new EnumMap<>(Signal.class);
        for (Map.Entry<Signal, Ranking> e : answered.entrySet()) {
            List<ScoredId> own = e.getValue().entries();
            Set<String> ranked = new HashSet<>();
            own.forEach(x -> ranked.add(x.id()));
            Set<String> others = new LinkedHashSet<>();
            answered.forEach(
                    (s, r) -> {
                        if (s != e.getKey()) {
                            r.entries().forEach(x -> others.add(x.id()));
                        }
                    });
            others.removeAll(ranked);
            List<ScoredId> extra = new ArrayList<>(e.getValue().scoresOf(others));
            if (extra.isEmpty()) {
                out.put(e.getKey(), e.getValue());
                continue;
            }
            extra.sort(BEST_FIRST);
            List<ScoredId> all = new ArrayList<>(own);
            all.addAll(extra);
            out.put(e.getKey(), Ranking.of(all));
        }
        return new SignalRun(out, outcomes, failures);
    }

    /** The answered rankings fused by {@code fusion} under {@code weights}. */
    public List<FusedCandidate> fuse(Fusion fusion, SignalWeights weights) {
        return fusion.fuse(rankings(), weights);
    }
}
