package dev.cairn.retrieval.fusion;

/** How {@link Fusion#convex} maps each signal's raw scores to {@code [0, 1]}. */
public enum Normalization {
    /**
     * {@code (s - min) / (max - min)} over the signal's returned list; all 1 when the list has one
     * distinct score. Sensitive to how deep the list is: its last entry always becomes 0.
     */
    MIN_MAX,
    /**
     * {@code (s - m) / (max - m)} with {@code m} the signal's lowest possible score ({@link
     * Signal#theoreticalMin()}: 0 for BM25, -1 for cosine) and {@code max} the list's best score.
     * Bruch, Gai and Ingber ("An Analysis of Fusion Functions for Hybrid Retrieval", ACM TOIS
     * 42(1), 2023) found this "TM2C2" more robust than plain min-max: it does not stretch a list of
     * near-equal scores to the full range, and a list of one is well defined. The default.
     */
    THEORETICAL_MIN_MAX,
    /**
     * {@code max(0, s) / M} with {@code M} the signal's highest possible score when it has one
     * ({@link Signal#theoreticalMax()}: 1 for cosine, which is kept as it is, clipped at 0) and
     * else the list's best score (BM25 divided by the best BM25; 1 when the best is not above 0).
     * Memory recall's mix: a cosine keeps its absolute meaning (a weak best match stays weak),
     * while BM25, which has no scale of its own, is read relative to the query's best.
     */
    MAX_SCALED;

    /** The default normalisation. */
    public static final Normalization DEFAULT = THEORETICAL_MIN_MAX;
}
