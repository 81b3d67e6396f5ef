package dev.cairn.retrieval;

import dev.cairn.retrieval.fusion.Signal;
import dev.cairn.retrieval.lexical.Analysis;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How far the top hit can be trusted to answer the query: a logistic model over features of the
 * answer ({@link Features}), {@code grounding = 1 / (1 + exp(-(b0 + sum(b_i * feature_i))))}: the
 * top hit's dense similarity, whether lexical and dense agree on it, the fused margin, how far it
 * leads its competitors (the next hits of other documents) in meaning and in wording, and how much
 * of the query it covers, alone and against its competitors. The coefficients were fitted by
 * logistic regression on the tune half of SciFact train (label: the top hit's document is
 * relevant); see docs/retrieval.md for the split, the fit and its AUROC. Stateless and thread-safe.
 */
public final class Grounding {

    /** How deep in both signals the top hit must be for the agreement feature. */
    public static final int AGREEMENT_DEPTH = 3;

    // Maximum-likelihood fit on the tune half of SciFact train (the 411 queries whose smallest
    // relevant document id is even; hybrid RRF, whole corpus): AUROC 0.870 there and 0.857 on the
    // other 398 queries, against 0.794 / 0.779 for the earlier three-feature fit on all 809
    // (dense 13.015, agreement 1.636, margin 6.755, intercept -11.309). The margin's weight turns
    // negative beside the leads, which measure the same gap per signal and better.
    static final double INTERCEPT = -3.010;

    /** Weights of {@link Features#values()}, in the order of {@link Features#NAMES}. */
    static final double[] COEFFICIENTS = {
        2.116, 0.279, -6.449, 32.189, 0.483, 1.760, 3.220, -0.155
    };

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
     *     #LEAD_DEPTH} hits of other documents (its competitors): how far it stands out in meaning
     * @param lexicalLead the top hit's lexical score minus the best among its competitors, over the
     *     larger of the two (in [-1, 1]; 0 with no lexical scores): how far it stands out in
     *     wording
     * @param coverage the share of the query's terms the top hit contains, each term weighted by
     *     how few of it and its competitors contain it ({@link #coverages}): does the top hit say
     *     what the query asks, not only something near it
     * @param coverageLead the top hit's coverage minus its first competitor's
     * @param coverageMeanLead the top hit's coverage minus the mean of its competitors'
     */
    public record Features(
            double dense,
            double agreement,
            double margin,
            double denseLead,
            double lexicalLead,
            double coverage,
            double coverageLead,
            double coverageMeanLead) {

        /** Names of the features, in the order of {@link #values()}. */
        public static final List<String> NAMES =
                List.of(
                        "dense",
                        "agreement",
                        "margin",
                        "denseLead",
                        "lexicalLead",
                        "coverage",
                        "coverageLead",
                        "coverageMeanLead");

        /** The features in the order of {@link #NAMES}. */
        public double[] values() {
            return new double[] {
                dense,
                agreement,
                margin,
                denseLead,
                lexicalLead,
                coverage,
                coverageLead,
                coverageMeanLead
            };
        }
    }

    /**
     * How much of the query each hit contains: the sum of the weights of the query terms (as the
     * lexical index analyses them) found in the hit's title and text, over the sum of all their
     * weights, a term's weight being {@code ln((n + 1) / (df + 1)) + 1} with {@code df} the number
     * of the {@code n} hits containing it. The weights come from the hits themselves, so no corpus
     * statistics are needed: a term every hit contains tells them apart least.
     */
    static double[] coverages(String query, List<RetrievedHit> hits) {
        Set<String> queryTerms = Analysis.terms(query);
        List<Set<String>> hitTerms = new ArrayList<>();
        for (RetrievedHit h : hits) {
            hitTerms.add(Analysis.terms(h.title() + "\n" + h.text()));
        }
        double total = 0;
        double[] covered = new double[hits.size()];
        for (String t : queryTerms) {
            int df = 0;
            for (Set<String> terms : hitTerms) {
                df += terms.contains(t) ? 1 : 0;
            }
            double weight = Math.log((hits.size() + 1.0) / (df + 1.0)) + 1;
            total += weight;
            for (int k = 0; k < hits.size(); k++) {
                if (hitTerms.get(k).contains(t)) {
                    covered[k] += weight;
                }
            }
        }
        for (int k = 0; k < covered.length; k++) {
            covered[k] = total == 0 ? 0 : covered[k] / total;
        }
        return covered;
    }

    /**
     * The features of an answer to {@code query} whose hits are {@code hits}, best first; null
     * without hits.
     */
    public static Features features(String query, List<RetrievedHit> hits) {
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
        // the top hit's competitors are the next hits of other documents: another chunk of the
        // same document does not make the answer less certain
        List<RetrievedHit> field = new ArrayList<>();
        field.add(top);
        for (RetrievedHit h : hits.subList(1, hits.size())) {
            if (field.size() > LEAD_DEPTH) {
                break;
            }
            if (!h.documentId().equals(top.documentId())) {
                field.add(h);
            }
        }
        double nextDense = 0;
        double nextLexical = 0;
        for (RetrievedHit h : field.subList(1, field.size())) {
            nextDense = Math.max(nextDense, h.scores().getOrDefault(Signal.DENSE, 0.0));
            nextLexical = Math.max(nextLexical, h.scores().getOrDefault(Signal.LEXICAL, 0.0));
        }
        double lexical = top.scores().getOrDefault(Signal.LEXICAL, 0.0);
        double larger = Math.max(lexical, nextLexical);
        double lexicalLead = larger <= 0 ? 0 : (lexical - nextLexical) / larger;
        double[] coverage = coverages(query, field);
        double second = coverage.length > 1 ? coverage[1] : 0;
        double mean = 0;
        for (int k = 1; k < coverage.length; k++) {
            mean += coverage[k] / (coverage.length - 1);
        }
        return new Features(
                dense,
                agreement,
                margin,
                dense - nextDense,
                lexicalLead,
                coverage[0],
                coverage[0] - second,
                coverage[0] - mean);
    }

    /**
     * The grounding score of an answer to {@code query} whose hits are {@code hits}, best first.
     */
    public static double score(String query, List<RetrievedHit> hits) {
        Features f = features(query, hits);
        if (f == null) {
            return 0.0;
        }
        double[] x = f.values();
        double z = INTERCEPT;
        for (int k = 0; k < x.length; k++) {
            z += COEFFICIENTS[k] * x[k];
        }
        return 1.0 / (1.0 + Math.exp(-z));
    }

    /**
     * Where the plan changes: at or above {@code direct} the agent may answer from the evidence, at
     * or above {@code scoped} within what it covers, below that it should defer.
     */
    public record Thresholds(double direct, double scoped) {

        /**
         * Chosen on SciFact train (hybrid RRF, whole corpus) with the earlier three-feature model
         * and kept for the current one, whose score is a probability too: on the tune half at >=
         * 0.8 the top hit was relevant for 95% of 165 queries ({@code direct}), between 0.5 and 0.8
         * for 69% of 107 ({@code scoped}), below 0.5 for 26% of 139 ({@code defer}); on the report
         * half 90% of 182, 75% of 91, 28% of 125.
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
