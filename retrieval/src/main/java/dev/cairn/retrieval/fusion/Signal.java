package dev.cairn.retrieval.fusion;

/** A retrieval signal whose ranking takes part in fusion. */
public enum Signal {
    /** BM25 over chunk text; scores are {@code >= 0}, unbounded above. */
    LEXICAL(0, Double.POSITIVE_INFINITY),
    /** Cosine similarity of embeddings; scores are in {@code [-1, 1]}. */
    DENSE(-1, 1),
    /** Entity-graph proximity; scores are {@code >= 0}, unbounded above. */
    GRAPH(0, Double.POSITIVE_INFINITY);

    private final double theoreticalMin;
    private final double theoreticalMax;

    Signal(double theoreticalMin, double theoreticalMax) {
        this.theoreticalMin = theoreticalMin;
        this.theoreticalMax = theoreticalMax;
    }

    /**
     * The highest score this signal can give, used by {@link Normalization#MAX_SCALED}; infinite
     * when it has none.
     */
    public double theoreticalMax() {
        return theoreticalMax;
    }

    /** The lowest score this signal can give, used by {@link Normalization#THEORETICAL_MIN_MAX}. */
    public double theoreticalMin() {
        return theoreticalMin;
    }
}
