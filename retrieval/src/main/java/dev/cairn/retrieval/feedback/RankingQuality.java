package dev.cairn.retrieval.feedback;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * nDCG@k as trec_eval's {@code ndcg_cut} computes it (Järvelin and Kekäläinen, TOIS 2002): {@code
 * DCG@k = sum_{i<=k} rel_i / log2(i + 1)} with linear gain, divided by the DCG@k of the judged
 * grades in ideal order. The one implementation, used by the tuner's held-back comparison and by
 * {@code cairn eval}. Stateless.
 */
public final class RankingQuality {

    private RankingQuality() {}

    /** nDCG@k of one ranked list; 0 when the query has no relevant item. */
    public static double ndcg(List<String> ranked, Map<String, Integer> judged, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("illegal k: " + k + ", must be >= 1");
        }
        double dcg = 0;
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            int rel = judged.getOrDefault(ranked.get(i), 0);
            if (rel > 0) {
                dcg += rel / log2(i + 2);
            }
        }
        List<Integer> ideal = new ArrayList<>(judged.values());
        ideal.sort(Comparator.reverseOrder());
        double idcg = 0;
        for (int i = 0; i < Math.min(k, ideal.size()); i++) {
            if (ideal.get(i) > 0) {
                idcg += ideal.get(i) / log2(i + 2);
            }
        }
        return idcg == 0 ? 0 : dcg / idcg;
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
