package dev.cairn.retrieval;

import java.util.List;
import java.util.Objects;

/**
 * The answer of a retrieve call (API.md): selected hits best first, every fused candidate, the
 * evidence split by authority, the graph context, a grounding score in [0, 1] with the plan it
 * implies, timings, how each signal fared, and the version of the namespace's query adapter the
 * dense signal applied (0 when none) with the factor it put on the dense weight (1 when none) and
 * the weight of its judged-relevant prior (0 when none; the boosted candidates' explanations say by
 * how much).
 */
public record RetrieveResult(
        String traceId,
        String query,
        List<RetrievedHit> hits,
        List<TraceCandidate> candidates,
        GraphContext graph,
        double grounding,
        Plan plan,
        Timings timings,
        List<SignalOutcome> signals,
        int adaptationVersion,
        double adaptationDenseWeight,
        double adaptationPriorWeight) {

    public RetrieveResult {
        Objects.requireNonNull(traceId, "traceId");
        Objects.requireNonNull(query, "query");
        hits = List.copyOf(hits);
        candidates = List.copyOf(candidates);
        Objects.requireNonNull(graph, "graph");
        if (!(grounding >= 0 && grounding <= 1)) {
            throw new IllegalArgumentException(
                    "illegal grounding: " + grounding + ", must be in [0, 1]");
        }
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(timings, "timings");
        signals = List.copyOf(signals);
        if (adaptationVersion < 0) {
            throw new IllegalArgumentException(
                    "illegal adaptationVersion: " + adaptationVersion + ", must be >= 0");
        }
    }

    /** True when a signal timed out or failed, so the answer rests on fewer signals. */
    public boolean partial() {
        return signals.stream()
                .anyMatch(
                        s ->
                                s.status() == SignalOutcome.Status.TIMEOUT
                                        || s.status() == SignalOutcome.Status.FAILED);
    }
}
