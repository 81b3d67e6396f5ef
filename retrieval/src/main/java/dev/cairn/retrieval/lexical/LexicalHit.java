package dev.cairn.retrieval.lexical;

import java.util.Optional;

/**
 * One chunk found by a lexical search.
 *
 * @param chunkId the chunk
 * @param documentId the chunk's document
 * @param score BM25 score
 * @param rank 1-based rank in the answer
 * @param explanationText Lucene's explanation of the score, empty unless asked for
 */
public record LexicalHit(
        String chunkId, String documentId, double score, int rank, String explanationText) {

    public LexicalHit {
        if (rank < 1) {
            throw new IllegalArgumentException("illegal rank: " + rank + ", must be >= 1");
        }
        if (explanationText == null) {
            throw new IllegalArgumentException("illegal explanationText: null, use \"\"");
        }
    }

    /** Lucene's explanation of the score, when the search asked for it. */
    public Optional<String> explanation() {
        return explanationText.isEmpty() ? Optional.empty() : Optional.of(explanationText);
    }
}
