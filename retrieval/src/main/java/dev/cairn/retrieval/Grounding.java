package dev.cairn.retrieval;

import dev.cairn.retrieval.fusion.Signal;
import java.util.List;

/**
 * How far the top hit can be trusted to answer the query: a logistic model over three features of
 * the answer, {@code grounding = 1 / (1 + exp(-(b0 + b1 * dense + b2 * agreement + b3 * margin)))},
 * where {@code dense} is the top hit's cosine similarity to the query (0 when the dense signal did
 * not return it), {@code agreement} is 1 when the lexical and dense signals both rank the top hit
 * in their top {@value #AGREEMENT_DEPTH}, and {@code margin} is the relative gap between the first
 * and second fused scores. The coefficients were fitted by logistic regression on SciFact train
 * (label: the top hit's document is relevant); see the README for the fit and its AUROC. Stateless
 * and thread-safe.
 */
public final class Grounding {

    /** How deep in both signals the top hit must be for the agreement feature. */
    public static final int AGREEMENT_DEPTH = 3;

    // Maximum-likelihood fit on all 809 SciFact train queries (hybrid RRF, whole corpus, 64% of
    // top hits relevant): AUROC 0.794, and the score is a calibrated probability that the top hit
    // is relevant. The earlier hand fit on a 74-query subset (-14, 16, 1.2, 2) gave 0.786.
    static final double INTERCEPT = -11.309;
    static final double DENSE = 13.015;
    static final double AGREEMENT = 1.636;
    static final double MARGIN = 6.755;

    private Grounding() {}

    /** How many hits after the top one its lead in each signal is measured against. */
    public static final int LEAD_DEPTH = 9;

    /**
     * What the grounding score is computed from, for one answer.
     *
     * @param dense the top hit's cosine similarity to the query, 0 when the dense signal did not
     *     return it
     * @param agreement 1 when both lexical and dense rank the top hit in their top {@value
     *     #AGREEMENT_DEPTH}, else 0
     * @param margin the relative gap between the first and second fused scores
     * @param denseLead the top hit's cosine minus the best cosine among the next {@value
     *     #LEAD_DEPTH} hits: how far it stands out in meaning
     * @param lexicalLead the top hit's lexical score minus the best among the next {@value
     *     #LEAD_DEPTH} hits, over the larger of the two (in [-1, 1]; 0 with no lexical scores): how
     *     far it stands out in wording
     */
    public record Features(
            double dense, double agreement, double margin, double denseLead, double lexicalLead) {

        /** Names of the features, in the order of {@link #values()}. */
        public static final List<String> NAMES =
                List.of("dense", "agreement", "margin", "denseLead", "lexicalLead");

        /** The features in the order of {@link #NAMES}. */
        public double[] values() {
            return new double[] {dense, agreement, margin, denseLead, lexicalLead};
        }
    }

    /** The features of an answer whose hits are {@code hits}, best first; null without hits. */
    public static Features features(List<RetrievedHit> hits) {
        if (hits.isEmpty()) {
            return null;
        }
        RetrievedHit top = hits.getFirst();
        double dense = top.scores().getOrDefault(Signal.DENSE, 0.0);
        Integer lexicalRank = top.ranks().get(Signal.LEXICAL);
        Integer denseRank = top.ranks().get(Signal.DENSE);
        double agreement =
                lexicalRank != null
                                && denseRank != null
                                && lexicalRank <= AGREEMENT_DEPTH
                                && denseRank <= AGREEMENT_DEPTH
                        ? 1.0
                        : 0.0;
        double margin =
                hits.size() < 2 || top.score() <= 0
                        ? 1.0
                        : Math.max(0, (top.score() - hits.get(1).score()) / top.score());
        double nextDense = 0;
        double nextLexical = 0;
        for (RetrievedHit h : hits.subList(1, Math.min(hits.size(), 1 + LEAD_DEPTH))) {
            nextDense = Math.max(nextDense, h.scores().getOrDefault(Signal.DENSE, 0.0));
            nextLexical = Math.max(nextLexical, h.scores().getOrDefault(Signal.LEXICAL, 0.0));
        }
        double lexical = top.scores().getOrDefault(Signal.LEXICAL, 0.0);
        double larger = Math.max(lexical, nextLexical);
        double lexicalLead = larger <= 0 ? 0 : (lexical - nextLexical) / larger;
        return new Features(dense, agreement, margin, dense - nextDense, lexicalLead);
    }

    /** The grounding score of an answer whose hits are {@code hits}, best first. */
    public static double score(List<RetrievedHit> hits) {
        Features f = features(hits);
        if (f == null) {
            return 0.0;
        }
        double z = INTERCEPT + DENSE * f.dense() + AGREEMENT * f.agreement() + MARGIN * f.margin();
        return 1.0 / (1.0 + Math.exp(-z));
    }

    /**
     * Where the plan changes: at or above {@code direct} the agent may answer from the evidence, at
     * or above {@code scoped} within what it covers, below that it should defer.
     */
    public record Thresholds(double direct, double scoped) {

        /**
         * Chosen on SciFact train (hybrid RRF, whole corpus, 809 queries) with the fitted model: at
         * >= 0.8 the top hit was relevant for 88% of the 207 queries there ({@code direct}),
         * between 0.5 and 0.8 for 67% of 432 ({@code scoped}), below 0.5 for 25% of 170 ({@code
         * defer}).
         */
        public static final Thresholds DEFAULTS = new Thresholds(0.8, 0.5);

        public Thresholds {
            if (!(scoped >= 0 && scoped <= direct && direct <= 1)) {
                throw new IllegalArgumentException(
                        "illegal thresholds: scoped "
                                + scoped
                                + ", direct "
                                + direct
                                + ", must satisfy 0 <= scoped <= direct <= 1");
            }
        }

        public Plan plan(double grounding) {
            return grounding >= direct
                    ? Plan.DIRECT
                    : grounding >= scoped ? Plan.SCOPED : Plan.DEFER;
        }
    }
}
