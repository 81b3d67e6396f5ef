package dev.cairn.retrieval;

import dev.cairn.embeddings.EmbeddingModel;
import dev.cairn.retrieval.feedback.ActivationRule;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.feedback.AdaptationStore;
import dev.cairn.retrieval.feedback.FeedbackLog;
import dev.cairn.retrieval.feedback.HeldBackScore;
import dev.cairn.retrieval.feedback.JudgedPrior;
import dev.cairn.retrieval.feedback.Judgment;
import dev.cairn.retrieval.feedback.JudgmentSplit;
import dev.cairn.retrieval.feedback.QueryAdapter;
import dev.cairn.retrieval.feedback.QueryAdapterTrainer;
import dev.cairn.retrieval.feedback.RankingQuality;
import dev.cairn.retrieval.feedback.TuneOptions;
import dev.cairn.retrieval.feedback.TuneReport;
import dev.cairn.retrieval.store.DocumentRepository;
import dev.cairn.retrieval.store.StoredChunk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Trains a namespace's adaptation from its document and chunk judgments and decides whether to
 * activate it. The judged queries are split by {@link JudgmentSplit} (a document-disjoint hold-out
 * and a query hold-out, seeded); the query adapter is trained on the training queries with the
 * untuned search's top chunks of both signals as hard negatives; the dense signal's fusion weight
 * factor is chosen from {@link #DENSE_WEIGHTS} by the training queries' mean nDCG@10 with the new
 * adapter; the judged-relevant prior ({@link JudgedPrior}) counts the training queries' relevant
 * documents. The held-back queries are ranked (lexical + dense, the default fusion, then the prior)
 * under the namespace's current adaptation (or none) and the new one, over all of them and apart
 * for seen and unseen documents, and {@link ActivationRule} decides. An activated version keeps a
 * prior over every judged query's documents. Thread-safe.
 */
final class Tuner {

    /** Dense hard negatives per training query: the untuned dense search's top chunks. */
    static final int DENSE_NEGATIVES = 30;

    /** Lexical hard negatives per training query: BM25's top chunks. */
    static final int LEXICAL_NEGATIVES = 10;

    /** Depth of the held-back rankings (nDCG@10 needs 10 documents; more covers chunking). */
    static final int DEPTH = 100;

    /** The dense weight factors a tuning run chooses from (lexical weight 1). */
    static final List<Double> DENSE_WEIGHTS = List.of(1.0, 1.5, 2.0, 3.0);

    /** The ranking a query gets with a given query vector. */
    interface DocumentRanker {
        /**
         * Document ids, best first, for {@code query} with the dense signal at {@code vector} and
         * its weight {@code denseWeight} (lexical 1), then {@code prior}.
         */
        List<String> rank(
                String namespace,
                String query,
                float[] vector,
                double denseWeight,
                JudgedPrior prior,
                int depth);

        /** Chunk ids of the dense and lexical top hits of the untuned search. */
        List<String> candidates(String namespace, String query, float[] vector);
    }

    private final DocumentRepository documents;
    private final EmbeddingModel model;
    private final FeedbackLog feedback;
    private final AdaptationStore adaptations;
    private final DocumentRanker ranker;

    Tuner(
            DocumentRepository documents,
            EmbeddingModel model,
            FeedbackLog feedback,
            AdaptationStore adaptations,
            DocumentRanker ranker) {
        this.documents = documents;
        this.model = model;
        this.feedback = feedback;
        this.adaptations = adaptations;
        this.ranker = ranker;
    }

    /**
     * Trains, evaluates and stores a new version.
     *
     * @throws IllegalStateException when the namespace has too few judged queries to train on and
     *     hold back (at least one each, with a relevant document)
     */
    Adaptation tune(String namespace, TuneOptions options) {
        Map<String, Map<String, Integer>> judged = judgedQueries(namespace);
        JudgmentSplit split = JudgmentSplit.of(judged, options.holdOut(), options.trainer().seed());
        if (split.train().isEmpty() || split.held().isEmpty()) {
            throw new IllegalStateException(
                    "namespace '"
                            + namespace
                            + "' has "
                            + judged.size()
                            + " judged queries with a relevant document or chunk; training needs"
                            + " enough to keep at least one for training and hold back one"
                            + " (holdOut "
                            + options.holdOut()
                            + ")");
        }
        List<String> train = split.train();
        long start = System.nanoTime();
        List<QueryAdapterTrainer.Example> examples = new ArrayList<>();
        for (String q : train) {
            example(namespace, q, judged.get(q)).ifPresent(examples::add);
        }
        if (examples.isEmpty()) {
            throw new IllegalStateException(
                    "none of the judged documents of namespace '"
                            + namespace
                            + "' has an embedded chunk to train on");
        }
        int dimensions = examples.getFirst().query().length;
        QueryAdapter adapter =
                new QueryAdapterTrainer(options.trainer()).train(examples, dimensions);
        double denseWeight = 1;
        double bestTrain = -1;
        Map<String, float[]> trainVectors = new HashMap<>();
        for (String q : train) {
            trainVectors.put(q, adapter.apply(model.embedQuery(q)));
        }
        for (double w : DENSE_WEIGHTS) {
            double sum = 0;
            for (String q : train) {
                sum +=
                        RankingQuality.ndcg(
                                ranker.rank(
                                        namespace,
                                        q,
                                        trainVectors.get(q),
                                        w,
                                        JudgedPrior.NONE,
                                        DEPTH),
                                judged.get(q),
                                10);
            }
            if (sum > bestTrain) { // ties keep the smaller factor
                bestTrain = sum;
                denseWeight = w;
            }
        }
        long trainMillis = (System.nanoTime() - start) / 1_000_000;

        Optional<Adaptation> current = adaptations.active(namespace);
        QueryAdapter before = current.map(Adaptation::adapter).orElse(null);
        double beforeWeight = current.map(Adaptation::denseWeight).orElse(1.0);
        JudgedPrior beforePrior = current.map(Adaptation::prior).orElse(JudgedPrior.NONE);
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
                                ranker.rank(
                                        namespace,
                                        q,
                                        baselineVector,
                                        beforeWeight,
                                        beforePrior,
                                        DEPTH),
                                judged.get(q),
                                10),
                        RankingQuality.ndcg(
                                ranker.rank(
                                        namespace,
                                        q,
                                        adapter.apply(vector),
                                        denseWeight,
                                        trainedPrior,
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
                        trainMillis,
                        seen,
                        unseen,
                        ActivationRule.noiseBand(unseen));
        return adaptations.add(
                namespace,
                adapter,
                denseWeight,
                JudgedPrior.of(options.priorWeight(), judged, judged.keySet()),
                report);
    }

    /**
     * Judged queries with at least one relevant document: per query, each judged document's latest
     * grade (a chunk judgment counts for its document).
     */
    private Map<String, Map<String, Integer>> judgedQueries(String namespace) {
        Map<String, Map<String, Integer>> judged = new LinkedHashMap<>();
        for (Judgment j : feedback.all(namespace)) { // oldest first: the latest grade wins
            j.target()
                    .documentId()
                    .ifPresent(
                            doc ->
                                    judged.computeIfAbsent(j.query(), q -> new HashMap<>())
                                            .put(doc, j.grade()));
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

    /** The training example of a query; empty when no judged document has an embedded chunk. */
    private Optional<QueryAdapterTrainer.Example> example(
            String namespace, String query, Map<String, Integer> judged) {
        float[] vector = model.embedQuery(query);
        Map<String, float[]> positives = new HashMap<>();
        for (Map.Entry<String, Integer> e : judged.entrySet()) {
            if (e.getValue() > 0) {
                for (StoredChunk chunk : documents.chunks(namespace, e.getKey())) {
                    if (chunk.embedding().length > 0) {
                        positives.put(chunk.id(), chunk.embedding());
                    }
                }
            }
        }
        Set<String> negativeIds = new LinkedHashSet<>();
        for (String id : ranker.candidates(namespace, query, vector)) {
            if (judged.getOrDefault(StoredChunk.documentIdOf(id), 0) == 0) {
                negativeIds.add(id);
            }
        }
        Map<String, float[]> negatives = new HashMap<>();
        for (StoredChunk chunk : documents.chunks(namespace, negativeIds)) {
            if (chunk.embedding().length > 0) {
                negatives.put(chunk.id(), chunk.embedding());
            }
        }
        return positives.isEmpty()
                ? Optional.empty()
                : Optional.of(new QueryAdapterTrainer.Example(vector, positives, negatives));
    }
}
