package dev.cairn.eval.beir;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Ranking metrics computed as trec_eval computes them (relevance level 1: a document is relevant
 * when its judged grade is {@code >= 1}). Stateless and thread-safe.
 *
 * <ul>
 *   <li>nDCG@k ({@code ndcg_cut}; Järvelin and Kekäläinen, TOIS 2002): {@code DCG@k = sum_{i<=k}
 *       rel_i / log2(i + 1)} with linear gain, divided by the DCG@k of the judged documents in
 *       ideal order.
 *   <li>Recall@k ({@code recall_k}): relevant documents in the top k / all relevant documents.
 *   <li>MRR@k ({@code recip_rank} cut at k): 1 / rank of the first relevant document in the top k,
 *       0 if none.
 * </ul>
 *
 * <p>The run is taken in the order given; callers rank by score descending, id ascending.
 * (trec_eval itself re-sorts by score and breaks ties by document id descending.)
 */
public final class Metrics {

    /** nDCG cut-off reported by BEIR. */
    public static final int NDCG_K = 10;

    /** Recall cut-off reported by BEIR. */
    public static final int RECALL_K = 100;

    /** MRR cut-off. */
    public static final int MRR_K = 10;

    private Metrics() {}

    /** nDCG@k of one ranked list; 0 when the query has no relevant documents. */
    public static double ndcg(List<String> ranked, Map<String, Integer> judged, int k) {
        return dev.cairn.retrieval.feedback.RankingQuality.ndcg(ranked, judged, k);
    }

    /** Recall@k; 0 when the query has no relevant documents. */
    public static double recall(List<String> ranked, Map<String, Integer> judged, int k) {
        checkK(k);
        long relevant = judged.values().stream().filter(r -> r > 0).count();
        if (relevant == 0) {
            return 0;
        }
        long found = ranked.stream().limit(k).filter(d -> judged.getOrDefault(d, 0) > 0).count();
        return (double) found / relevant;
    }

    /** Reciprocal rank of the first relevant document within the top k, else 0. */
    public static double mrr(List<String> ranked, Map<String, Integer> judged, int k) {
        checkK(k);
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            if (judged.getOrDefault(ranked.get(i), 0) > 0) {
                return 1.0 / (i + 1);
            }
        }
        return 0;
    }

    /**
     * Mean nDCG@10, Recall@100 and MRR@10 over every query of {@code qrels}; a query missing from
     * the run scores 0, queries only in the run are ignored.
     */
    public static Summary evaluate(Map<String, List<String>> run, Qrels qrels) {
        Map<String, Summary.PerQuery> perQuery = new LinkedHashMap<>();
        for (String q : qrels.queryIds()) {
            List<String> ranked = run.getOrDefault(q, List.of());
            Map<String, Integer> judged = qrels.of(q);
            perQuery.put(
                    q,
                    new Summary.PerQuery(
                            ndcg(ranked, judged, NDCG_K),
                            recall(ranked, judged, RECALL_K),
                            mrr(ranked, judged, MRR_K)));
        }
        return new Summary(
                mean(perQuery, Summary.PerQuery::ndcg10),
                mean(perQuery, Summary.PerQuery::recall100),
                mean(perQuery, Summary.PerQuery::mrr10),
                perQuery);
    }

    /**
     * Document ranking from chunk hits: a document's score is the maximum over its chunks; ranked
     * by score descending, id ascending.
     */
    public static List<ScoredDoc> maxPerDocument(List<ScoredDoc> chunkHitsByDocument) {
        Map<String, Double> best = new HashMap<>();
        for (ScoredDoc hit : chunkHitsByDocument) {
            best.merge(hit.id(), hit.score(), Math::max);
        }
        List<ScoredDoc> docs = new ArrayList<>();
        best.forEach((id, s) -> docs.add(new ScoredDoc(id, s)));
        docs.sort(BY_SCORE_DESC_ID_ASC);
        return docs;
    }

    /** Score descending, then id ascending. */
    public static final Comparator<ScoredDoc> BY_SCORE_DESC_ID_ASC =
            Comparator.comparingDouble(ScoredDoc::score).reversed().thenComparing(ScoredDoc::id);

    private static double mean(
            Map<String, Summary.PerQuery> perQuery, ToDoubleFunction<Summary.PerQuery> f) {
        return perQuery.values().stream().mapToDouble(f).average().orElse(0);
    }

    private static void checkK(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("illegal k: " + k + ", must be >= 1");
        }
    }

    /**
     * Mean metrics over the judged queries.
     *
     * @param ndcg10 mean nDCG@10
     * @param recall100 mean Recall@100
     * @param mrr10 mean MRR@10
     * @param perQuery the per-query values, in qrels order
     */
    public record Summary(
            double ndcg10, double recall100, double mrr10, Map<String, PerQuery> perQuery) {

        public Summary {
            perQuery = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(perQuery));
        }

        /** Number of queries evaluated. */
        public int queries() {
            return perQuery.size();
        }

        /** The means over those of this summary's queries that are in {@code queryIds}. */
        public Summary restrictedTo(java.util.Set<String> queryIds) {
            Map<String, PerQuery> kept = new LinkedHashMap<>();
            perQuery.forEach(
                    (q, values) -> {
                        if (queryIds.contains(q)) {
                            kept.put(q, values);
                        }
                    });
            return new Summary(
                    mean(kept, PerQuery::ndcg10),
                    mean(kept, PerQuery::recall100),
                    mean(kept, PerQuery::mrr10),
                    kept);
        }

        /**
         * Metrics of one query.
         *
         * @param ndcg10 nDCG@10
         * @param recall100 Recall@100
         * @param mrr10 MRR@10
         */
        public record PerQuery(double ndcg10, double recall100, double mrr10) {}
    }
}
