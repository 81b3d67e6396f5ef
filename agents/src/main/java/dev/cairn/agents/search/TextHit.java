package dev.cairn.agents.search;

import java.util.OptionalInt;

/**
 * One search hit with the evidence for its score.
 *
 * @param id the entry id
 * @param score fused score
 * @param lexicalRank 1-based BM25 rank, 0 when BM25 did not return it
 * @param denseRank 1-based cosine rank, 0 when the dense signal did not return it
 */
public record TextHit(String id, double score, int lexicalRank, int denseRank) {
    public TextHit {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("illegal id: empty");
        }
        if (lexicalRank < 0 || denseRank < 0) {
            throw new IllegalArgumentException(
                    "illegal ranks " + lexicalRank + ", " + denseRank + ": must be >= 0");
        }
    }

    public OptionalInt lexical() {
        return lexicalRank == 0 ? OptionalInt.empty() : OptionalInt.of(lexicalRank);
    }

    public OptionalInt dense() {
        return denseRank == 0 ? OptionalInt.empty() : OptionalInt.of(denseRank);
    }
}
