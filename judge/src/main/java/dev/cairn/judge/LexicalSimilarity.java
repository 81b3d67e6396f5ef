package dev.cairn.judge;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * TF-IDF cosine over stemmed content words; see {@link SimilarityFunction#lexical()}. Stateless.
 *
 * <p>Immutable and thread-safe.
 */
final class LexicalSimilarity implements SimilarityFunction {

    static final LexicalSimilarity INSTANCE = new LexicalSimilarity();

    private LexicalSimilarity() {}

    @Override
    public String name() {
        return "lexical-tfidf";
    }

    @Override
    public double[][] similarities(List<String> claims, List<String> passages) {
        List<Map<String, Integer>> claimTf = new ArrayList<>();
        List<Map<String, Integer>> passageTf = new ArrayList<>();
        Map<String, Integer> df = new HashMap<>();
        for (String c : claims) {
            claimTf.add(termFrequencies(c, df));
        }
        for (String p : passages) {
            passageTf.add(termFrequencies(p, df));
        }
        int n = claims.size() + passages.size();
        Map<String, Double> idf = new HashMap<>();
        df.forEach((t, d) -> idf.put(t, Math.log((1.0 + n) / (1.0 + d)) + 1.0));
        List<Map<String, Double>> cv = claimTf.stream().map(tf -> weigh(tf, idf)).toList();
        List<Map<String, Double>> pv = passageTf.stream().map(tf -> weigh(tf, idf)).toList();
        double[][] out = new double[claims.size()][passages.size()];
        for (int i = 0; i < cv.size(); i++) {
            for (int j = 0; j < pv.size(); j++) {
                out[i][j] = cosine(cv.get(i), pv.get(j));
            }
        }
        return out;
    }

    private static Map<String, Integer> termFrequencies(String text, Map<String, Integer> df) {
        Map<String, Integer> tf = new HashMap<>();
        for (String t : Text.contentStemList(text)) {
            tf.merge(t, 1, Integer::sum);
        }
        for (String t : tf.keySet()) {
            df.merge(t, 1, Integer::sum);
        }
        return tf;
    }

    private static Map<String, Double> weigh(Map<String, Integer> tf, Map<String, Double> idf) {
        Map<String, Double> v = new HashMap<>();
        tf.forEach((t, f) -> v.put(t, f * idf.get(t)));
        return v;
    }

    private static double cosine(Map<String, Double> a, Map<String, Double> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return 0.0;
        }
        Map<String, Double> small = a.size() <= b.size() ? a : b;
        Map<String, Double> large = small == a ? b : a;
        double dot = 0;
        for (var e : small.entrySet()) {
            Double w = large.get(e.getKey());
            if (w != null) {
                dot += e.getValue() * w;
            }
        }
        double na = norm(a);
        double nb = norm(b);
        return Math.min(1.0, dot / (na * nb));
    }

    private static double norm(Map<String, Double> v) {
        double s = 0;
        for (double w : v.values()) {
            s += w * w;
        }
        return Math.sqrt(s);
    }
}
