package dev.cairn.retrieval.feedback;

import dev.cairn.retrieval.fusion.FusedCandidate;
import dev.cairn.retrieval.fusion.Fusion;
import dev.cairn.retrieval.fusion.Signal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The part of an adaptation that learns how far to trust each signal's evidence (issue 42 part 1):
 * a linear score over what the lexical and dense signals say of a candidate, fitted to a
 * namespace's judgments, that replaces the default fusion's score. Its features describe the
 * candidate's evidence, never which document it is, so what it learns carries to documents nobody
 * judged: on SciFact, that a cosine well above the query's others or a BM25 score near BM25's best
 * means more than their ranks say (docs/retrieval.md, "Learned fusion").
 *
 * <p>The features of a candidate, in {@link #FEATURES} order: the adaptive fusion's lexical term
 * {@code f * k / (k + lexical rank)} ({@code f} the factor of BM25's first-to-second gap, 0 when
 * BM25 did not return it), the dense term {@code k / (k + dense rank)}, its cosine, its cosine less
 * the query's best, and its BM25 score over BM25's best (0 when not returned). A candidate the
 * dense signal did not return takes the lowest returned cosine less {@link #MISSING_COSINE_GAP}.
 * {@code k} is {@link Fusion#DEFAULT_K} whatever the request's. At training the weights are scaled
 * so that over the training candidates the scores spread as the default fusion's do: the
 * judged-relevant prior, added after it, keeps its meaning. (Shifting them to the default fusion's
 * mean as well made the grounding score separate right from wrong top hits less well on SciFact:
 * AUROC 0.826 against 0.845; docs/retrieval.md.) Immutable and thread-safe.
 *
 * @param weights one per feature of {@link #FEATURES}; empty for {@link #NONE}
 */
public record LearnedFusion(double[] weights) {

    /** The features' names, in the weights' order. */
    public static final List<String> FEATURES =
            List.of("lexical-rank", "dense-rank", "cosine", "cosine-gap", "bm25-share");

    /** No learned fusion: the default fusion ranks. */
    public static final LearnedFusion NONE = new LearnedFusion(new double[0]);

    /** Below the lowest returned cosine, for a candidate the dense signal did not return. */
    public static final double MISSING_COSINE_GAP = 0.02;

    /** A training query's candidates paired: relevant ones against the others of this many. */
    static final int PAIR_DEPTH = 50;

    /** The pull of the standardised weights toward zero (L2). */
    static final double REGULARIZATION = 0.01;

    /**
     * At most this many pairs train (a seeded uniform sample of them beyond it): SciFact train's
     * 643 training queries give about 35,000.
     */
    static final int MAX_PAIRS = 50_000;

    private static final long SAMPLING_SEED = 42;

    public LearnedFusion {
        weights = weights.clone();
        if (weights.length != 0 && weights.length != FEATURES.size()) {
            throw new IllegalArgumentException(
                    "illegal weights: "
                            + weights.length
                            + " of them, must be 0 or "
                            + FEATURES.size()
                            + " ("
                            + String.join(", ", FEATURES)
                            + ")");
        }
        for (double w : weights) {
            if (!Double.isFinite(w)) {
                throw new IllegalArgumentException("illegal weight: " + w + ", must be finite");
            }
        }
    }

    @Override
    public double[] weights() {
        return weights.clone();
    }

    /** Whether it ranks (a version trained with it); {@link #NONE} does not. */
    public boolean active() {
        return weights.length > 0;
    }

    /**
     * Whether it ranks {@code fused}: only candidates the lexical and dense signals scored, as it
     * was trained on; a ranking the entity graph contributed to keeps the default fusion.
     */
    public boolean ranks(List<FusedCandidate> fused) {
        return active() && fused.stream().noneMatch(c -> c.ranks().containsKey(Signal.GRAPH));
    }

    /**
     * {@code fused} scored by the learned weights and re-ranked (score descending, id ascending);
     * ranks and signal scores are kept. Returns {@code fused} itself when it does not {@link
     * #ranks} it.
     */
    public List<FusedCandidate> apply(List<FusedCandidate> fused) {
        if (!ranks(fused)) {
            return fused;
        }
        double[][] x = features(fused);
        List<FusedCandidate> out = new ArrayList<>(fused.size());
        for (int i = 0; i < fused.size(); i++) {
            FusedCandidate c = fused.get(i);
            out.add(new FusedCandidate(c.id(), dot(weights, x[i]), c.ranks(), c.scores()));
        }
        out.sort(
                Comparator.comparingDouble((FusedCandidate c) -> c.score())
                        .reversed()
                        .thenComparing(FusedCandidate::id));
        return out;
    }

    /**
     * One training query: its candidates under the default fusion and which of them are relevant.
     */
    public record Example(List<FusedCandidate> candidates, Set<String> relevantIds) {
        public Example {
            candidates = List.copyOf(candidates);
            relevantIds = Set.copyOf(relevantIds);
        }
    }

    /**
     * Fits the weights to {@code examples}: a pairwise logistic loss over each query's relevant
     * candidates against its other ones among the first {@link #PAIR_DEPTH} (a candidate nobody
     * judged counts as not relevant), on standardised features, starting from the default fusion's
     * two rank terms, with an L2 pull of {@link #REGULARIZATION}; then scaled to the default
     * fusion's spread. {@link #NONE} when no query has both a relevant and another candidate.
     */
    public static LearnedFusion train(List<Example> examples) {
        int d = FEATURES.size();
        // a reservoir of the pairs and running spreads: the fit's time and the pairs' memory stay
        // bounded however many queries were judged (the candidates are the caller's)
        List<double[]> pairs = new ArrayList<>();
        Random sampling = new Random(SAMPLING_SEED);
        long pairsSeen = 0;
        // the covariance of the features and the default fusion's score (column d) gives their
        // spreads and, once the weights are known, the learned scores' spread, without a second
        // pass over the candidates
        Covariance columns = new Covariance(d + 1);
        double[] row = new double[d + 1];
        for (Example e : examples) {
            if (e.candidates().isEmpty()) {
                continue;
            }
            double[][] x = features(e.candidates());
            for (int i = 0; i < x.length; i++) {
                System.arraycopy(x[i], 0, row, 0, d);
                row[d] = e.candidates().get(i).score();
                columns.add(row);
            }
            int depth = Math.min(PAIR_DEPTH, x.length);
            for (int p = 0; p < depth; p++) {
                if (!e.relevantIds().contains(e.candidates().get(p).id())) {
                    continue;
                }
                for (int n = 0; n < depth; n++) {
                    if (e.relevantIds().contains(e.candidates().get(n).id())) {
                        continue;
                    }
                    pairsSeen++;
                    if (pairs.size() < MAX_PAIRS) {
                        pairs.add(minus(x[p], x[n]));
                    } else {
                        long slot = sampling.nextLong(pairsSeen);
                        if (slot < MAX_PAIRS) {
                            pairs.set((int) slot, minus(x[p], x[n]));
                        }
                    }
                }
            }
        }
        if (pairs.isEmpty()) {
            return NONE;
        }
        double[] spread = new double[d];
        for (int j = 0; j < d; j++) {
            spread[j] = columns.deviation(j);
            if (!(spread[j] > 1e-12)) {
                spread[j] = 1; // a constant feature: its weight stays where the pull keeps it
            }
        }
        double[][] standardised = new double[pairs.size()][d];
        for (int i = 0; i < pairs.size(); i++) {
            for (int j = 0; j < d; j++) {
                standardised[i][j] = pairs.get(i)[j] / spread[j];
            }
        }
        double[] w = minimise(standardised, d);
        if (Arrays.stream(w).allMatch(x -> Math.abs(x) < 1e-12)) {
            return NONE; // the pairs tell nothing apart: leave the default fusion
        }
        double[] raw = new double[d];
        for (int j = 0; j < d; j++) {
            raw[j] = w[j] / spread[j];
        }
        double learnedSpread = columns.deviationAlong(raw);
        double fusedSpread = columns.deviation(d);
        double scale = learnedSpread > 0 && fusedSpread > 0 ? fusedSpread / learnedSpread : 1;
        for (int j = 0; j < d; j++) {
            raw[j] *= scale;
        }
        return new LearnedFusion(raw);
    }

    /** Each candidate's features, in {@link #FEATURES} order. */
    static double[][] features(List<FusedCandidate> fused) {
        int k = Fusion.DEFAULT_K;
        double bestCosine = Double.NEGATIVE_INFINITY;
        double lowestCosine = Double.POSITIVE_INFINITY;
        // BM25's two best scores, as the adaptive fusion reads them (ties share a rank, so the
        // second best is not always rank 2)
        double firstLexical = Double.NEGATIVE_INFINITY;
        double secondLexical = Double.NEGATIVE_INFINITY;
        for (FusedCandidate c : fused) {
            Double cos = c.scores().get(Signal.DENSE);
            if (cos != null) {
                bestCosine = Math.max(bestCosine, cos);
                lowestCosine = Math.min(lowestCosine, cos);
            }
            Double lexical = c.scores().get(Signal.LEXICAL);
            if (lexical != null && lexical > firstLexical) {
                secondLexical = firstLexical;
                firstLexical = lexical;
            } else if (lexical != null && lexical > secondLexical) {
                secondLexical = lexical;
            }
        }
        double factor =
                secondLexical == Double.NEGATIVE_INFINITY
                        ? 1
                        : Fusion.adaptiveLexicalFactor(firstLexical, secondLexical);
        double bestLexical = firstLexical == Double.NEGATIVE_INFINITY ? 0 : firstLexical;
        double missingCosine =
                lowestCosine == Double.POSITIVE_INFINITY ? 0 : lowestCosine - MISSING_COSINE_GAP;
        if (bestCosine == Double.NEGATIVE_INFINITY) {
            bestCosine = missingCosine;
        }
        double[][] x = new double[fused.size()][];
        for (int i = 0; i < fused.size(); i++) {
            FusedCandidate c = fused.get(i);
            Integer lexicalRank = c.ranks().get(Signal.LEXICAL);
            Integer denseRank = c.ranks().get(Signal.DENSE);
            Double lexical = c.scores().get(Signal.LEXICAL);
            double cos = c.scores().getOrDefault(Signal.DENSE, missingCosine);
            x[i] =
                    new double[] {
                        lexicalRank == null ? 0 : factor * k / (k + lexicalRank),
                        denseRank == null ? 0 : (double) k / (k + denseRank),
                        cos,
                        cos - bestCosine,
                        lexical == null || !(bestLexical > 0) ? 0 : lexical / bestLexical
                    };
        }
        return x;
    }

    /** The weights, for messages: "lexical-rank 0.53, dense-rank 0.61, ...". */
    public String describe() {
        if (!active()) {
            return "none";
        }
        List<String> parts = new ArrayList<>();
        for (int j = 0; j < weights.length; j++) {
            parts.add(
                    FEATURES.get(j)
                            + " "
                            + String.format(java.util.Locale.ROOT, "%.4g", weights[j]));
        }
        return String.join(", ", parts);
    }

    private static double dot(double[] w, double[] x) {
        double s = 0;
        for (int j = 0; j < w.length; j++) {
            s += w[j] * x[j];
        }
        return s;
    }

    private static double[] minus(double[] a, double[] b) {
        double[] d = new double[a.length];
        for (int j = 0; j < a.length; j++) {
            d[j] = a[j] - b[j];
        }
        return d;
    }

    /**
     * The weights minimising the mean pairwise logistic loss {@code log(1 + exp(-w . z))} over
     * {@code pairs} plus {@code REGULARIZATION / 2 |w|^2} ({@link LogisticFit}, every pair a
     * positive row), from the default fusion's two rank terms.
     */
    static double[] minimise(double[][] pairs, int d) {
        double[] start = new double[d];
        start[0] = 1; // the default fusion's lexical and dense terms
        start[1] = 1;
        boolean[] positive = new boolean[pairs.length];
        Arrays.fill(positive, true);
        return LogisticFit.fit(pairs, positive, ridge(pairs.length, d), start);
    }

    /** The mean pairwise loss of {@code w} plus its pull, as {@link #minimise} minimises it. */
    static double loss(double[][] pairs, double[] w) {
        boolean[] positive = new boolean[pairs.length];
        Arrays.fill(positive, true);
        return LogisticFit.loss(pairs, positive, ridge(pairs.length, w.length), w) / pairs.length;
    }

    /** The sum's penalty that makes {@link #REGULARIZATION} the mean loss's. */
    private static double[] ridge(int pairs, int d) {
        double[] ridge = new double[d];
        Arrays.fill(ridge, REGULARIZATION * pairs);
        return ridge;
    }

    /** The covariance of the vectors added so far (Welford's running form, per pair of columns). */
    private static final class Covariance {
        private long count;
        private final double[] mean;
        private final double[][] comoments;
        private final double[] before; // x less the mean before x, reused by each add

        Covariance(int d) {
            mean = new double[d];
            comoments = new double[d][d];
            before = new double[d];
        }

        void add(double[] x) {
            count++;
            for (int j = 0; j < x.length; j++) {
                before[j] = x[j] - mean[j];
                mean[j] += before[j] / count;
            }
            for (int j = 0; j < x.length; j++) {
                for (int k = 0; k < x.length; k++) {
                    comoments[j][k] += before[j] * (x[k] - mean[k]);
                }
            }
        }

        /** Column {@code j}'s standard deviation. */
        double deviation(int j) {
            return count < 2 ? 0 : Math.sqrt(Math.max(0, comoments[j][j] / count));
        }

        /**
         * The standard deviation of the vectors' dot products with {@code w}, over the first {@code
         * w.length} columns.
         */
        double deviationAlong(double[] w) {
            if (count < 2) {
                return 0;
            }
            double sum = 0;
            for (int j = 0; j < w.length; j++) {
                for (int k = 0; k < w.length; k++) {
                    sum += w[j] * comoments[j][k] * w[k];
                }
            }
            return Math.sqrt(Math.max(0, sum / count));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LearnedFusion other && Arrays.equals(weights, other.weights);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(weights);
    }

    @Override
    public String toString() {
        return "LearnedFusion[" + describe() + "]";
    }
}
