package dev.cairn.retrieval;

import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.store.Authority;
import java.util.Map;
import java.util.Objects;

/**
 * A selected hit of a retrieve answer: the chunk, its document, the fused score and the evidence
 * for it (rank and raw score in each signal that returned it).
 */
public record RetrievedHit(
        String chunkId,
        String documentId,
        String title,
        String text,
        String heading,
        double score,
        Authority authority,
        Map<Signal, Integer> ranks,
        Map<Signal, Double> scores) {

    public RetrievedHit {
        Objects.requireNonNull(chunkId, "chunkId");
        Objects.requireNonNull(documentId, "documentId");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(heading, "heading");
        Objects.requireNonNull(authority, "authority");
        ranks = Map.copyOf(ranks);
        scores = Map.copyOf(scores);
    }
}
