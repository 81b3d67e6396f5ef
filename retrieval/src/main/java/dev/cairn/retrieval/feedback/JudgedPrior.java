package dev.cairn.retrieval.feedback;

import dev.cairn.retrieval.fusion.FusedCandidate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The judged-relevant prior of an adaptation: a visible, bounded boost in fusion for candidates
 * whose document training queries judged relevant. It is what an adaptation learns as "these
 * documents were relevant before" (a namespace's popular documents rise), kept apart from the query
 * adapter so that the adapter is left to learn how questions map to documents, and so that the
 * boost shows in the trace with its own weight and reason.
 *
 * <p>A candidate of a document judged relevant by {@code n} training queries gains, after fusion,
 * {@code weight * n / (n + 1) / (k + 1)}: with weight 1 and one judging query, half of the vote a
 * signal gives its first place under RRF ({@code 1 / (k + 1)}); never more than {@code weight / (k
 * + 1)} however often the document was judged. It never adds a candidate that no signal returned.
 * Immutable and thread-safe.
 *
 * @param weight the prior's weight, >= 0 (0: no boost)
 * @param relevantQueries per document, how many training queries judged it relevant (>= 1 each)
 */
public record JudgedPrior(double weight, Map<String, Integer> relevantQueries) {

    /** No prior: nothing is boosted. */
    public static final JudgedPrior NONE = new JudgedPrior(0, Map.of());

    public JudgedPrior {
        if (!(weight >= 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException(
                    "illegal weight: " + weight + ", must be >= 0 and finite");
        }
        relevantQueries.forEach(
                (doc, n) -> {
                    if (n < 1) {
                        throw new IllegalArgumentException(
                                "illegal relevantQueries of " + doc + ": " + n + ", must be >= 1");
                    }
                });
        relevantQueries = Map.copyOf(new TreeMap<>(relevantQueries));
    }

    /**
     * The prior of {@code queries} of {@code judged} (query to document to grade): each document
     * counts the queries that judged it relevant.
     */
    public static JudgedPrior of(
            double weight, Map<String, Map<String, Integer>> judged, Collection<String> queries) {
        Map<String, Integer> counts = new TreeMap<>();
        for (String q : queries) {
            judged.getOrDefault(q, Map.of())
                    .forEach(
                            (doc, grade) -> {
                                if (grade > 0) {
                                    counts.merge(doc, 1, Integer::sum);
                                }
                            });
        }
        return new JudgedPrior(weight, counts);
    }

    /** Whether it changes any ranking. */
    public boolean active() {
        return weight > 0 && !relevantQueries.isEmpty();
    }

    /** The boost of a candidate of {@code documentId} under RRF constant {@code k}; 0 if none. */
    public double boost(String documentId, int k) {
        return lift(documentId) / (k + 1);
    }

    /**
     * {@code weight * n / (n + 1)} for a key {@code n} training queries judged relevant, 0 if none:
     * recall multiplies such a memory's relevance by {@code 1 + lift} (it has no RRF constant).
     */
    public double lift(String key) {
        Integer n = relevantQueries.get(key);
        return n == null ? 0 : weight * n / (n + 1.0);
    }

    /**
     * {@code fused} with each boosted candidate's score raised by {@link #boost} and re-ranked
     * (score descending, id ascending); each boosted candidate's explanation says by how much and
     * why. Returns {@code fused} itself when the prior is not {@link #active()}.
     *
     * @param documentOf the document id of a candidate id
     * @param explanations candidate id to explanation; lines are added here
     */
    public List<FusedCandidate> apply(
            List<FusedCandidate> fused,
            int k,
            Function<String, String> documentOf,
            Map<String, String> explanations) {
        if (!active()) {
            return fused;
        }
        List<FusedCandidate> out = new ArrayList<>(fused.size());
        boolean changed = false;
        for (FusedCandidate c : fused) {
            String doc = documentOf.apply(c.id());
            double boost = boost(doc, k);
            if (boost == 0) {
                out.add(c);
                continue;
            }
            changed = true;
            out.add(new FusedCandidate(c.id(), c.score() + boost, c.ranks(), c.scores()));
            String line =
                    String.format(
                            Locale.ROOT,
                            "judged-relevant prior: +%.6f (document %s judged relevant for %d"
                                    + " training queries, weight %.2f)",
                            boost,
                            doc,
                            relevantQueries.get(doc),
                            weight);
            synchronized (explanations) {
                explanations.merge(c.id(), line, (a, b) -> a + "\n" + b);
            }
        }
        if (!changed) {
            return fused;
        }
        out.sort(
                Comparator.comparingDouble((FusedCandidate c) -> c.score())
                        .reversed()
                        .thenComparing(FusedCandidate::id));
        return out;
    }
}
