package dev.cairn.retrieval.feedback;

/**
 * Mean nDCG@10 of a group of held-back queries before and with a new adaptation, and how noisy
 * their difference is.
 *
 * @param queries how many queries the group has (0: the other fields are 0)
 * @param baselineNdcg10 mean nDCG@10 under the ranking before (the active adaptation, or none)
 * @param adaptedNdcg10 mean nDCG@10 with the new adaptation
 * @param standardError standard error of the mean per-query difference (adapted - baseline): the
 *     sample standard deviation over {@code sqrt(queries)}, 0 for fewer than two queries
 */
public record HeldBackScore(
        int queries, double baselineNdcg10, double adaptedNdcg10, double standardError) {

    /** A group without queries. */
    public static final HeldBackScore NONE = new HeldBackScore(0, 0, 0, 0);

    public HeldBackScore {
        if (queries < 0) {
            throw new IllegalArgumentException("illegal queries: " + queries + ", must be >= 0");
        }
        if (!(standardError >= 0)) {
            throw new IllegalArgumentException(
                    "illegal standardError: " + standardError + ", must be >= 0");
        }
    }

    /** The score of paired per-query values ({@code baseline[i]} and {@code adapted[i]}). */
    public static HeldBackScore of(double[] baseline, double[] adapted) {
        if (baseline.length != adapted.length) {
            throw new IllegalArgumentException(
                    "illegal pairs: "
                            + baseline.length
                            + " baseline, "
                            + adapted.length
                            + " adapted values, must be as many");
        }
        int n = baseline.length;
        if (n == 0) {
            return NONE;
        }
        double before = 0;
        double after = 0;
        for (int i = 0; i < n; i++) {
            before += baseline[i];
            after += adapted[i];
        }
        double meanDifference = (after - before) / n;
        double squares = 0;
        for (int i = 0; i < n; i++) {
            double d = adapted[i] - baseline[i] - meanDifference;
            squares += d * d;
        }
        double error = n < 2 ? 0 : Math.sqrt(squares / (n - 1)) / Math.sqrt(n);
        return new HeldBackScore(n, before / n, after / n, error);
    }

    /** {@code adaptedNdcg10 - baselineNdcg10}. */
    public double gain() {
        return adaptedNdcg10 - baselineNdcg10;
    }
}
