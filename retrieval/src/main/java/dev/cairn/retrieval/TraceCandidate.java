package dev.cairn.retrieval;

import dev.cairn.retrieval.fusion.Signal;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One fused candidate of a retrieve call, selected or not.
 *
 * @param explanation Lucene's explanation of the lexical score, empty unless asked for
 * @param filteredOut true when the request's filters removed it
 * @param graphPath the graph signal's path from a linked entity to the chunk (relations in walking
 *     order; its length is the hop count), empty when the graph did not rank it
 */
public record TraceCandidate(
        String chunkId,
        String documentId,
        double fused,
        Map<Signal, Integer> ranks,
        Map<Signal, Double> scores,
        boolean selected,
        boolean filteredOut,
        String explanation,
        List<GraphContext.TraversedRelation> graphPath) {

    public TraceCandidate {
        graphPath = List.copyOf(graphPath);
        Objects.requireNonNull(chunkId, "chunkId");
        Objects.requireNonNull(documentId, "documentId");
        ranks = Map.copyOf(ranks);
        scores = Map.copyOf(scores);
        Objects.requireNonNull(explanation, "explanation");
    }

    /** A candidate without a graph path. */
    public TraceCandidate(
            String chunkId,
            String documentId,
            double fused,
            Map<Signal, Integer> ranks,
            Map<Signal, Double> scores,
            boolean selected,
            boolean filteredOut,
            String explanation) {
        this(
                chunkId,
                documentId,
                fused,
                ranks,
                scores,
                selected,
                filteredOut,
                explanation,
                List.of());
    }
}
