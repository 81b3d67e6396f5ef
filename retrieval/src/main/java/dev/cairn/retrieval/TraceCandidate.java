package dev.cairn.retrieval;

import dev.cairn.retrieval.fusion.Signal;
import java.util.Map;
import java.util.Objects;

/**
 * One fused candidate of a retrieve call, selected or not.
 *
 * @param explanation Lucene's explanation of the lexical score, empty unless asked for
 * @param filteredOut true when the request's filters removed it
 */
public record TraceCandidate(
        String chunkId,
        String documentId,
        double fused,
        Map<Signal, Integer> ranks,
        Map<Signal, Double> scores,
        boolean selected,
        boolean filteredOut,
        String explanation) {

    public TraceCandidate {
        Objects.requireNonNull(chunkId, "chunkId");
        Objects.requireNonNull(documentId, "documentId");
        ranks = Map.copyOf(ranks);
        scores = Map.copyOf(scores);
        Objects.requireNonNull(explanation, "explanation");
    }
}
