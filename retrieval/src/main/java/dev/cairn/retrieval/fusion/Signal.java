package dev.cairn.retrieval.fusion;

/** A retrieval signal whose ranking takes part in fusion. */
public enum Signal {
    /** BM25 over chunk text; scores are {@code >= 0}. */
    LEXICAL(0),
    /** Cosine similarity of embeddings; scores are in {@code [-1, 1]}. */
    DENSE(-1),
    /** Entity-graph proximity; scores are {@code >= 0}. */
    GRAPH(0);

    private final double theoreticalMin;

    Signal(double theoreticalMin) {
        this.theoreticalMin = theoreticalMin;
    }

    /** The lowest score this signal can give, used by {@link Normalization#THEORETICAL_MIN_MAX}. */
    public double theoreticalMin() {
        return theoreticalMin;
    }
}
