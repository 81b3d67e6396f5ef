package dev.cairn.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
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
     * the dense weight, the weight of its judged-relevant prior (0 when it has none) and whether
     * its learned fusion scored the candidates (false when it has none, the request asked for rrf
     * or convex or weighted one signal, a signal did not answer in time, or the entity graph
     * contributed; recall's are always false).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Adaptation(
            boolean applied,
            Integer version,
            Double denseWeight,
            Double priorWeight,
            Boolean learnedFusion) {}

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
            Map<String, Number> scores) {}

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
            @JsonInclude(JsonInclude.Include.NON_NULL) List<SignalViews.Relation> graphPath) {}

    /** A linked entity. */
    public record Entity(String id, String name) {}
}
