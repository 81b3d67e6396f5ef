package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.retrieval.RetrieveResult;
import dev.cairn.retrieval.RetrievedHit;
import dev.cairn.retrieval.Timings;
import dev.cairn.retrieval.TraceCandidate;
import dev.cairn.store.Authority;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer of {@code POST retrieve} (also the {@code retrieve} tool's and the command line's):
 * the hits, the candidate trace when asked for, evidence ids by authority, the linked entities and
 * relations, grounding, plan, timings, how each signal did, and whether the namespace's query
 * adapter was applied (and which version).
 */
public record RetrieveAnswer(
        String traceId,
        List<Hit> hits,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<Candidate> trace,
        Map<String, List<String>> evidence,
        List<Entity> entities,
        List<SignalViews.Relation> relations,
        double grounding,
        String plan,
        Timings timings,
        Map<String, SignalViews.Outcome> signals,
        boolean partial,
        Adaptation adaptation) {

    /**
     * Whether the namespace's trained adaptation was applied, and which: its version, the factor on
     * the dense weight and the weight of its judged-relevant prior (0 when it has none).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Adaptation(
            boolean applied, Integer version, Double denseWeight, Double priorWeight) {

        static Adaptation of(int version, double denseWeight, double priorWeight) {
            return version > 0
                    ? new Adaptation(true, version, denseWeight, priorWeight)
                    : new Adaptation(false, null, null, null);
        }
    }

    /** One hit. */
    public record Hit(
            String chunkId,
            String documentId,
            String title,
            String text,
            String heading,
            double score,
            String authority,
            Map<String, Number> ranks,
            Map<String, Number> scores) {

        static Hit of(RetrievedHit hit) {
            return new Hit(
                    hit.chunkId(),
                    hit.documentId(),
                    hit.title(),
                    hit.text(),
                    hit.heading(),
                    hit.score(),
                    hit.authority().key(),
                    SignalViews.bySignal(hit.ranks()),
                    SignalViews.bySignal(hit.scores()));
        }
    }

    /**
     * A fused candidate; {@code filteredOut} (only ever true), {@code explanation} and {@code
     * graphPath} only when they say something.
     */
    public record Candidate(
            String chunkId,
            String documentId,
            Map<String, Number> ranks,
            Map<String, Number> scores,
            double fused,
            boolean selected,
            @JsonInclude(JsonInclude.Include.NON_NULL) Boolean filteredOut,
            @JsonInclude(JsonInclude.Include.NON_NULL) String explanation,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<SignalViews.Relation> graphPath) {

        static Candidate of(TraceCandidate c) {
            return new Candidate(
                    c.chunkId(),
                    c.documentId(),
                    SignalViews.bySignal(c.ranks()),
                    SignalViews.bySignal(c.scores()),
                    c.fused(),
                    c.selected(),
                    c.filteredOut() ? Boolean.TRUE : null,
                    c.explanation().isEmpty() ? null : c.explanation(),
                    c.graphPath().isEmpty() ? null : SignalViews.Relation.all(c.graphPath()));
        }
    }

    /** A linked entity. */
    public record Entity(String id, String name) {}

    public static RetrieveAnswer of(RetrieveResult result, boolean withTrace) {
        Map<String, List<String>> evidence = new LinkedHashMap<>();
        for (Authority a : Authority.values()) {
            evidence.put(
                    a.key(),
                    result.hits().stream()
                            .filter(h -> h.authority() == a)
                            .map(RetrievedHit::chunkId)
                            .toList());
        }
        return new RetrieveAnswer(
                result.traceId(),
                result.hits().stream().map(Hit::of).toList(),
                withTrace ? result.candidates().stream().map(Candidate::of).toList() : null,
                evidence,
                result.graph().entities().stream().map(e -> new Entity(e.id(), e.name())).toList(),
                SignalViews.Relation.all(result.graph().relations()),
                result.grounding(),
                result.plan().wireName(),
                result.timings(),
                SignalViews.outcomes(result.signals()),
                result.partial(),
                Adaptation.of(
                        result.adaptationVersion(),
                        result.adaptationDenseWeight(),
                        result.adaptationPriorWeight()));
    }
}
