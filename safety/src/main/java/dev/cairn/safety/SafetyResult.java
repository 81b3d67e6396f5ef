package dev.cairn.safety;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Outcome of {@link WriteSafety#check}: the overall verdict (the most severe hit, ALLOW without
 * hits) and the hits sorted by offset. Never contains any of the checked text.
 */
public record SafetyResult(Verdict verdict, List<RuleHit> hits) {
    public SafetyResult {
        Objects.requireNonNull(verdict, "verdict");
        hits =
                hits.stream()
                        .sorted(
                                Comparator.comparingInt(RuleHit::offset)
                                        .thenComparing(RuleHit::rule))
                        .toList();
        Verdict worst = hits.stream().map(RuleHit::verdict).reduce(Verdict.ALLOW, Verdict::max);
        if (worst != verdict) {
            throw new IllegalArgumentException(
                    "illegal verdict: " + verdict + ", must be the most severe hit " + worst);
        }
    }

    static SafetyResult of(List<RuleHit> hits) {
        return new SafetyResult(
                hits.stream().map(RuleHit::verdict).reduce(Verdict.ALLOW, Verdict::max), hits);
    }

    public boolean blocked() {
        return verdict == Verdict.BLOCK;
    }

    public boolean flagged() {
        return verdict == Verdict.FLAG;
    }

    /** The first blocking hit, to name in a 422 answer. */
    public Optional<RuleHit> firstBlocking() {
        return hits.stream().filter(h -> h.verdict() == Verdict.BLOCK).findFirst();
    }

    /** Distinct rules that matched, in declaration order. */
    public List<SafetyRule> rules() {
        return hits.stream().map(RuleHit::rule).distinct().sorted().toList();
    }
}
