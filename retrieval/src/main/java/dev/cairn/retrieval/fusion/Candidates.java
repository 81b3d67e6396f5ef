package dev.cairn.retrieval.fusion;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Shared bookkeeping of the fusion implementations. Not thread-safe; one per call. */
final class Candidates {

    static final Comparator<FusedCandidate> ORDER =
            Comparator.comparingDouble((FusedCandidate c) -> c.score())
                    .reversed()
                    .thenComparing(FusedCandidate::id);

    private final Map<String, Acc> byId = new HashMap<>();

    /** Records every entry of every weighted signal, in {@link Signal} order. */
    static Candidates collect(Map<Signal, List<ScoredId>> rankings, SignalWeights weights) {
        Candidates c = new Candidates();
        for (Signal s : Signal.values()) {
            List<ScoredId> list = rankings.get(s);
            if (list == null || weights.weight(s) == 0) {
                continue;
            }
            // Competition ranking ("1224"): equal scores share the better rank, so which of two
            // equally close runbooks the graph lists first (an id order) cannot decide the fusion.
            int position = 0;
            int rank = 0;
            double previous = Double.NaN;
            for (ScoredId e : list) {
                position++;
                if (e.score() != previous) {
                    rank = position;
                    previous = e.score();
                }
                Acc acc = c.byId.computeIfAbsent(e.id(), Acc::new);
                if (acc.ranks.containsKey(s)) {
                    throw new IllegalArgumentException(
                            "illegal ranking of " + s + ": id '" + e.id() + "' appears twice");
                }
                acc.ranks.put(s, rank);
                acc.scores.put(s, e.score());
            }
        }
        return c;
    }

    Iterable<Acc> all() {
        return byId.values();
    }

    List<FusedCandidate> sorted() {
        List<FusedCandidate> out = new ArrayList<>(byId.size());
        for (Acc a : byId.values()) {
            out.add(new FusedCandidate(a.id, a.fused, a.ranks, a.scores));
        }
        out.sort(ORDER);
        return out;
    }

    /** One candidate being scored. */
    static final class Acc {
        final String id;
        final EnumMap<Signal, Integer> ranks = new EnumMap<>(Signal.class);
        final EnumMap<Signal, Double> scores = new EnumMap<>(Signal.class);
        double fused;

        Acc(String id) {
            this.id = id;
        }
    }
}
