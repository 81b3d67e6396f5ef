package dev.cairn.retrieval.fusion;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * A candidate after fusion, with the evidence for its score.
 *
 * @param id candidate id
 * @param score fused score
 * @param ranks 1-based rank in each signal that returned the candidate (and had a weight > 0)
 * @param scores raw score in each such signal
 */
public record FusedCandidate(
        String id, double score, Map<Signal, Integer> ranks, Map<Signal, Double> scores) {

    public FusedCandidate {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("illegal id: '" + id + "', must be non-empty");
        }
        if (!ranks.keySet().equals(scores.keySet())) {
            throw new IllegalArgumentException(
                    "illegal candidate "
                            + id
                            + ": ranks "
                            + ranks.keySet()
                            + " but scores "
                            + scores.keySet());
        }
        ranks =
                Collections.unmodifiableMap(
                        ranks.isEmpty() ? new EnumMap<>(Signal.class) : new EnumMap<>(ranks));
        scores =
                Collections.unmodifiableMap(
                        scores.isEmpty() ? new EnumMap<>(Signal.class) : new EnumMap<>(scores));
    }

    /** Rank in {@code signal}, absent when that signal did not return this candidate. */
    public OptionalInt rank(Signal signal) {
        Integer r = ranks.get(signal);
        return r == null ? OptionalInt.empty() : OptionalInt.of(r);
    }

    /** Raw score in {@code signal}, absent when that signal did not return this candidate. */
    public OptionalDouble score(Signal signal) {
        Double s = scores.get(signal);
        return s == null ? OptionalDouble.empty() : OptionalDouble.of(s);
    }
}
