package dev.cairn.retrieval.lexical;

/**
 * Settings of the BM25 lexical index.
 *
 * <p>BM25 (Robertson and Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009)
 * as implemented by Lucene's {@link org.apache.lucene.search.similarities.BM25Similarity}. The
 * defaults were chosen on the SciFact train queries only (see {@code package-info}).
 *
 * @param k1 term-frequency saturation, {@code >= 0}
 * @param b length normalisation, in {@code [0, 1]}
 * @param analysis how text and queries are analysed
 * @param weights per-field query boosts
 */
public record LexicalConfig(double k1, double b, Analysis analysis, FieldWeights weights) {

    /**
     * Default k1: Anserini's BM25 default, kept because a grid search on SciFact train (k1 in
     * 0.6..1.5) did not beat it by more than noise.
     */
    public static final double DEFAULT_K1 = 0.9;

    /** Default b: Anserini's BM25 default (see {@link #DEFAULT_K1}). */
    public static final double DEFAULT_B = 0.4;

    /** The defaults: k1 0.9, b 0.4, English analysis, the default field weights. */
    public static final LexicalConfig DEFAULTS =
            new LexicalConfig(DEFAULT_K1, DEFAULT_B, Analysis.ENGLISH, FieldWeights.DEFAULTS);

    public LexicalConfig {
        if (!(k1 >= 0) || Double.isInfinite(k1)) {
            throw new IllegalArgumentException("illegal k1: " + k1 + ", must be >= 0 and finite");
        }
        if (!(b >= 0 && b <= 1)) {
            throw new IllegalArgumentException("illegal b: " + b + ", must be in [0, 1]");
        }
        if (analysis == null) {
            throw new IllegalArgumentException("illegal analysis: null, must be one of Analysis");
        }
        if (weights == null) {
            throw new IllegalArgumentException("illegal weights: null");
        }
    }

    /** These settings with other BM25 parameters. */
    public LexicalConfig withBm25(double k1, double b) {
        return new LexicalConfig(k1, b, analysis, weights);
    }

    /** These settings with other field weights. */
    public LexicalConfig withWeights(FieldWeights weights) {
        return new LexicalConfig(k1, b, analysis, weights);
    }

    /** These settings with another analysis. */
    public LexicalConfig withAnalysis(Analysis analysis) {
        return new LexicalConfig(k1, b, analysis, weights);
    }
}
