package dev.cairn.agents.search;

import java.util.OptionalInt;

/**
 * One search hit with the evidence for its score.
 *
 * @param id the entry id
 * @param score fused score
 * @param lexicalRank 1-based BM25 rank, 0 when BM25 did not return it
 * @param denseRank 1-based cosine rank, 0 when the dense signal did not return it
 * @param relevance how similar the entry is to the query on a 0..1 scale, comparable across
 *     queries: the larger of the cosine between query and entry rescaled from {@link
 *     #COSINE_BASELINE} (what unrelated texts score) to 1 and clipped at 0, and the BM25 score
 *     saturated as {@code s / (s + }{@link #LEXICAL_HALF}{@code )}
 */
public record TextHit(String id, double score, int lexicalRank, int denseRank, double relevance) {

    /** The BM25 score whose saturated relevance is 0.5. */
    public static final double LEXICAL_HALF = 4.0;

    /**
     * The cosine unrelated texts reach with the default embedding model (about 0.4 to 0.45): a
     * cosine at or below it is relevance 0, 1 stays 1.
     */
    public static final double COSINE_BASELINE = 0.45;

    /**
     * Least relevance a search answer keeps: below it an entry shares neither meaning nor
     * distinctive terms with the query, and is left out rather than padding the answer.
     */
    public static final double RELEVANCE_FLOOR = 0.1;

    public TextHit {
        if (!(relevance >= 0 && relevance <= 1)) {
            throw new IllegalArgumentException(
                    "illegal relevance " + relevance + ": must be in [0, 1]");
        }
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("illegal id: empty");
        }
        if (lexicalRank < 0 || denseRank < 0) {
            throw new IllegalArgumentException(
                    "illegal ranks " + lexicalRank + ", " + denseRank + ": must be >= 0");
        }
    }

    /** The relevance of a BM25 score {@code s} and a cosine {@code cosine} (NaN: none). */
    public static double relevance(double bm25, double cosine) {
        double lexical = bm25 > 0 ? bm25 / (bm25 + LEXICAL_HALF) : 0;
        double dense =
                Double.isNaN(cosine)
                        ? 0
                        : Math.max(
                                0, Math.min(1, (cosine - COSINE_BASELINE) / (1 - COSINE_BASELINE)));
        return Math.max(lexical, dense);
    }

    public OptionalInt lexical() {
        return lexicalRank == 0 ? OptionalInt.empty() : OptionalInt.of(lexicalRank);
    }

    public OptionalInt dense() {
        return denseRank == 0 ? OptionalInt.empty() : OptionalInt.of(denseRank);
    }
}
