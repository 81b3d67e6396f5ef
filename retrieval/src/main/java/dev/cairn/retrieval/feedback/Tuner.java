package dev.cairn.retrieval.feedback;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.retrieval.fusion.FusedCandidate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Trains a namespace's adaptation from its judgments and decides whether to activate it, for one
 * {@link Subject}: documents (judged as documents or chunks; retrieve applies the adaptation) or
 * memories (recall applies it). What is ranked and judged is a <em>key</em> (a document, a memory);
 * what carries a vector is a <em>unit</em> (a chunk, a memory). The judged queries are split by
 * {@link JudgmentSplit} (a document-disjoint hold-out and a query hold-out, seeded); the query
 * adapter is trained on the training queries with the untuned search's top chunks of both signals
 * as hard negatives; the dense signal's fusion weight factor is chosen from {@link #DENSE_WEIGHTS}
 * on a document-disjoint part of the training queries ({@link #chooseDenseWeight}); the
 * judged-relevant prior ({@link JudgedPrior}) counts the training queries' relevant keys; where the
 * subject fuses ranks, a {@link LearnedFusion} is fitted to the training queries' untuned
 * candidates ({@link #learnFusion}). The held-back queries are ranked (lexical + dense, the default
 * fusion or the learned one, then the prior) under the namespace's current adaptation (or none) and
 * the new one, over all of them and apart for seen and unseen keys, and {@link ActivationRule}
 * decides. An activated version keeps a prior over every judged query's keys. Thread-safe.
 */
public final class Tuner {

    /** Dense hard negatives per training query: the untuned dense search's top units. */
    public static final int DENSE_NEGATIVES = 30;

    /** Lexical hard negatives per training query: BM25's top units. */
    public static final int LEXICAL_NEGATIVES = 10;

    /** Depth of the held-back rankings (nDCG@10 needs 10 keys; more covers chunking). */
    public static final int DEPTH = 100;

    /** The dense weight factors a tuning run chooses from (lexical weight 1). */
    public static final List<Double> DENSE_WEIGHTS = List.of(1.0, 1.5, 2.0, 3.0);

    /**
     * The share of the training queries held back again (half by relevant key, half by query) to
     * choose the dense weight factor on the ones whose keys the inner adapter never trained on.
     */
    static final double FACTOR_HOLD_OUT = 0.4;

    /** What an adaptation ranks: how judgments name it, its vectors and its ranking. */
    public interface Subject {
        /** The key a judgment is about, empty when it is about something else. */
        Optional<String> key(Judgment.Target target);

        /** The embedded units of a key (unit id to unit-length vector); empty when none. */
        Map<String, float[]> unitsOf(String namespace, String key);

        /** The vectors of the units of {@code unitIds} that have one. */
        Map<String, float[]> vectors(String namespace, Collection<String> unitIds);

        /** The key a unit belongs to. */
        String keyOf(String unitId);

        /** Unit ids of the dense and lexical top hits of the untuned search. */
        List<String> candidates(String namespace, String query, float[] vector);

        /**
         * The units of the untuned search's default fusion for {@code query}, best first, at most
         * {@code depth} per signal: what a learned fusion learns from. Empty where the subject has
         * no fusion to learn (recall mixes its signals its own way).
         */
        List<FusedCandidate> fused(String namespace, String query, float[] vector, int depth);

        /**
         * Keys, best first, for {@code query} with the dense signal at {@code vector} and its
         * weight multiplied by {@code denseWeight}, fused by {@code fusion} where it ranks, then
         * {@code prior}.
         */
        List<String> rank(
                String namespace,
                String query,
                float[] vector,
                double denseWeight,
                JudgedPrior prior,
                LearnedFusion fusion,
                int depth);

        /** What the judgments name, for messages: "document or chunk", "memory". */
        String judgedNoun();
    }

    private final EmbeddingModel model;
    private final FeedbackLog feedback;
    private final AdaptationStore adaptations;
    private final Subject subject;

    public Tuner(
            EmbeddingModel model,
            FeedbackLog feedback,
            AdaptationStore adaptations,
            Subject subject) {
        this.model = model;
        this.feedback = feedback;
        this.adaptations = adaptations;
        this.subject = subject;
    }

    /**
     * Trains, evaluates and stores a new version.
     *
     * @throws IllegalStateException when the namespace has too few judged queries to train on and
     *     hold back (at least one each, with a relevant document)
     */
    public Adaptation tune(String namespace, TuneOptions options) {
        Map<String, Map<String, Integer>> judged = judgedQueries(namespace);
        JudgmentSplit split = JudgmentSplit.of(judged, options.holdOut(), options.trainer().seed());
        if (split.train().isEmpty() || split.held().isEmpty()) {
            throw new IllegalStateException(
                    "namespace '"
                            + namespace
                            + "' has "
                            + judged.size()
                            + " judged queries with a relevant "
                            + subject.judgedNoun()
                            + "; training needs"
                            + " enough to keep at least one for training and hold back one"
                            + " (holdOut "
                            + options.holdOut()
                            + ")");
        }
        List<String> train = split.train();
        long start = System.nanoTime();
        Map<String, QueryAdapterTrainer.Example> byQuery = new LinkedHashMap<>();
        for (String q : train) {
            example(namespace, q, judged.get(q)).ifPresent(e -> byQuery.put(q, e));
        }
        List<QueryAdapterTrainer.Example> examples = new ArrayList<>(byQuery.values());
        if (examples.isEmpty()) {
            throw new IllegalStateException(
                    "nothing judged relevant in namespace '"
                            + namespace
                            + "' has a vector to train on");
        }
        int dimensions = examples.getFirst().query().length;
        QueryAdapter adapter =
                new QueryAdapterTrainer(options.trainer()).train(examples, dimensions);
        DenseWeightChoice choice =
                chooseDenseWeight(namespace, byQuery, judged, options, dimensions);
        double denseWeight = choice.factor();
        LearnedFusion fusion =
                options.learnedFusion()
                        ? learnFusion(namespace, byQuery, judged)
                        : LearnedFusion.NONE;
        long trainMillis = (System.nanoTime() - start) / 1_000_000;

        Optional<Adaptation> current = adaptations.active(namespace);
        QueryAdapter before = current.map(Adaptation::adapter).orElse(null);
        double beforeWeight = current.map(Adaptation::denseWeight).orElse(1.0);
        JudgedPrior beforePrior = current.map(Adaptation::prior).orElse(JudgedPrior.NONE);
        LearnedFusion beforeFusion = current.map(Adaptation::fusion).orElse(LearnedFusion.NONE);
        // held back, the prior knows only the training queries' documents; once activated, every
        // judged query's (the held-back ones were judged too)
        JudgedPrior trainedPrior = JudgedPrior.of(options.priorWeight(), judged, train);
        Map<String, double[]> perQuery = new HashMap<>(); // held-back query -> {before, with}
        for (String q : split.held()) {
            float[] vector = model.embedQuery(q);
            float[] baselineVector = before == null ? vector : before.apply(vector);
            perQuery.put(
                    q,
                    new double[] {
                        RankingQuality.ndcg(
                                subject.rank(
                                        namespace,
                                        q,
                                        baselineVector,
                                        beforeWeight,
                                        beforePrior,
                                        beforeFusion,
                                        DEPTH),
                                judged.get(q),
                                10),
                        RankingQuality.ndcg(
                                subject.rank(
                                        namespace,
                                        q,
                                        adapter.apply(vector),
                                        denseWeight,
                                        trainedPrior,
                                        fusion,
                                        DEPTH),
                                judged.get(q),
                                10)
                    });
        }
        HeldBackScore all = score(split.held(), perQuery);
        HeldBackScore seen = score(split.heldSeen(), perQuery);
        HeldBackScore unseen = score(split.heldUnseen(), perQuery);
        int used =
                judged.values().stream().mapToInt(Map::size).sum(); // distinct query/target pairs
        TuneReport report =
                new TuneReport(
                        train.size(),
                        all.queries(),
                        used,
                        current.map(Adaptation::version).orElse(0),
                        all.baselineNdcg10(),
                        all.adaptedNdcg10(),
                        ActivationRule.activates(all, unseen),
                        denseWeight,
                        choice.queries(),
                        trainMillis,
                        seen,
                        unseen,
                        ActivationRule.noiseBand(unseen));
        return adaptations.add(
                namespace,
                adapter,
                denseWeight,
                JudgedPrior.of(options.priorWeight(), judged, judged.keySet()),
                fusion,
                report);
    }

    /**
     * The dense weight factor, chosen where it has to generalise: the training queries are split
     * again ({@link JudgmentSplit}, {@link #FACTOR_HOLD_OUT}); an adapter trained on the inner
     * training part ranks the inner held-back queries none of whose relevant keys it trained on,
     * under each factor of {@link #DENSE_WEIGHTS}, and the best mean nDCG@10 wins (ties keep the
     * smaller). Chosen on the training queries themselves, ranked by the adapter trained on them,
     * the factor rewarded the adapter's memory of their keys (x3 on SciFact, which cost the queries
     * about documents nobody judged; docs/retrieval.md). 1 when no inner query is left to choose
     * on.
     */
    private DenseWeightChoice chooseDenseWeight(
            String namespace,
            Map<String, QueryAdapterTrainer.Example> examples,
            Map<String, Map<String, Integer>> judged,
            TuneOptions options,
            int dimensions) {
        Map<String, Map<String, Integer>> trainJudged = new LinkedHashMap<>();
        examples.keySet().forEach(q -> trainJudged.put(q, judged.get(q)));
        JudgmentSplit inner =
                JudgmentSplit.of(trainJudged, FACTOR_HOLD_OUT, options.trainer().seed() + 1);
        List<QueryAdapterTrainer.Example> innerExamples =
                inner.train().stream().map(examples::get).toList();
        if (innerExamples.isEmpty() || inner.heldUnseen().isEmpty()) {
            return new DenseWeightChoice(1, 0);
        }
        QueryAdapter adapter =
                new QueryAdapterTrainer(options.trainer()).train(innerExamples, dimensions);
        Map<String, float[]> vectors = new HashMap<>();
        for (String q : inner.heldUnseen()) {
            vectors.put(q, adapter.apply(examples.get(q).query())); // embedded for its example
        }
        double denseWeight = 1;
        double best = -1;
        for (double w : DENSE_WEIGHTS) {
            double sum = 0;
            for (String q : inner.heldUnseen()) {
                sum +=
                        RankingQuality.ndcg(
                                subject.rank(
                                        namespace,
                                        q,
                                        vectors.get(q),
                                        w,
                                        JudgedPrior.NONE,
                                        LearnedFusion.NONE,
                                        DEPTH),
                                judged.get(q),
                                10);
            }
            if (sum > best) { // ties keep the smaller factor
                best = sum;
                denseWeight = w;
            }
        }
        return new DenseWeightChoice(denseWeight, inner.heldUnseen().size());
    }

    /**
     * The learned fusion of the training queries: each one's untuned default fusion (the query's
     * own vector, not the new adapter's, which has seen their documents and would teach it to trust
     * the dense signal more than it earns on others), its relevant keys' units marked.
     */
    private LearnedFusion learnFusion(
            String namespace,
            Map<String, QueryAdapterTrainer.Example> examples,
            Map<String, Map<String, Integer>> judged) {
        List<LearnedFusion.Example> fusionExamples = new ArrayList<>();
        for (Map.Entry<String, QueryAdapterTrainer.Example> e : examples.entrySet()) {
            List<FusedCandidate> fused =
                    subject.fused(namespace, e.getKey(), e.getValue().query(), DEPTH);
            Map<String, Integer> grades = judged.get(e.getKey());
            Set<String> relevantIds = new HashSet<>();
            for (FusedCandidate c : fused) {
                if (grades.getOrDefault(subject.keyOf(c.id()), 0) > 0) {
                    relevantIds.add(c.id());
                }
            }
            fusionExamples.add(new LearnedFusion.Example(fused, relevantIds));
        }
        return LearnedFusion.train(fusionExamples);
    }

    /** A dense weight factor and the number of queries it was chosen on. */
    private record DenseWeightChoice(double factor, int queries) {}

    /**
     * Judged queries with at least one relevant key: per query, each judged key's latest grade (for
     * documents, a chunk judgment counts for its document).
     */
    private Map<String, Map<String, Integer>> judgedQueries(String namespace) {
        Map<String, Map<String, Integer>> judged = new LinkedHashMap<>();
        for (Judgment j : feedback.all(namespace)) { // oldest first: the latest grade wins
            subject.key(j.target())
                    .ifPresent(
                            key ->
                                    judged.computeIfAbsent(j.query(), q -> new HashMap<>())
                                            .put(key, j.grade()));
        }
        judged.values().removeIf(docs -> docs.values().stream().noneMatch(g -> g > 0));
        return judged;
    }

    /** The held-back score of {@code queries} from their per-query {before, with} values. */
    private static HeldBackScore score(List<String> queries, Map<String, double[]> perQuery) {
        double[] before = new double[queries.size()];
        double[] with = new double[queries.size()];
        for (int i = 0; i < queries.size(); i++) {
            before[i] = perQuery.get(queries.get(i))[0];
            with[i] = perQuery.get(queries.get(i))[1];
        }
        return HeldBackScore.of(before, with);
    }

    /** The training example of a query; empty when no judged key has an embedded unit. */
    private Optional<QueryAdapterTrainer.Example> example(
            String namespace, String query, Map<String, Integer> judged) {
        float[] vector = model.embedQuery(query);
        Map<String, float[]> positives = new HashMap<>();
        for (Map.Entry<String, Integer> e : judged.entrySet()) {
            if (e.getValue() > 0) {
                positives.putAll(subject.unitsOf(namespace, e.getKey()));
            }
        }
        Set<String> negativeIds = new LinkedHashSet<>();
        for (String id : subject.candidates(namespace, query, vector)) {
            if (judged.getOrDefault(subject.keyOf(id), 0) == 0) {
                negativeIds.add(id);
            }
        }
        Map<String, float[]> negatives = subject.vectors(namespace, negativeIds);
        return positives.isEmpty()
                ? Optional.empty()
                : Optional.of(new QueryAdapterTrainer.Example(vector, positives, negatives));
    }
}
