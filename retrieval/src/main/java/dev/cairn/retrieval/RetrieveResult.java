package dev.cairn.retrieval;

import dev.cairn.retrieval.feedback.AppliedAdaptation;
import java.util.List;
import java.util.Objects;

/**
 * The answer of a retrieve call (API.md): selected hits best first, every fused candidate, the
 * evidence split by authority, the graph context, a grounding score in [0, 1] with the plan it
 * implies, timings, how each signal fared, and the namespace's adaptation it was ranked under
 * ({@link AppliedAdaptation#NONE} when none; the boosted candidates' explanations say by how much
 * its prior lifted them).
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
        AppliedAdaptation adaptation) {

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
        Objects.requireNonNull(adaptation, "adaptation");
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
