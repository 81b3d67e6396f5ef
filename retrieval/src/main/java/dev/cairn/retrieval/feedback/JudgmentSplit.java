package dev.cairn.retrieval.feedback;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * How a tuning run divides a namespace's judged queries so that it can see both things an
 * adaptation learns: "these documents were relevant before" and "this is how the questions map to
 * the documents". A query hold-out alone cannot tell them apart, because most held-back queries
 * share a relevant document with some training query (538 of SciFact's 809 train queries do).
 *
 * <ol>
 *   <li>A share {@code holdOut / 2} of the relevant documents (ordered by a seeded hash of their
 *       id) is held back, and every query that judged one of them relevant is held back with it:
 *       those documents are never a training positive (the document-disjoint hold-out).
 *   <li>Of the other queries, a share {@code holdOut / 2} (ordered by a seeded hash of their text)
 *       is held back too (the query hold-out); the rest train.
 *   <li>Each held-back query is then <em>seen</em> when one of its relevant documents is relevant
 *       to a training query, <em>unseen</em> otherwise.
 * </ol>
 *
 * <p>So at {@code holdOut} 0.2 about a fifth of the judged queries are held back; on SciFact train
 * about half of them land on each side. Immutable.
 *
 * @param train the queries to train on
 * @param heldSeen held-back queries with a relevant document that some training query judged
 *     relevant
 * @param heldUnseen held-back queries none of whose relevant documents any training query judged
 *     relevant
 */
public record JudgmentSplit(List<String> train, List<String> heldSeen, List<String> heldUnseen) {

    public JudgmentSplit {
        train = List.copyOf(train);
        heldSeen = List.copyOf(heldSeen);
        heldUnseen = List.copyOf(heldUnseen);
    }

    /**
     * Splits {@code judged} (query to document to grade; queries without a relevant document are
     * left out).
     *
     * @throws IllegalArgumentException when {@code holdOut} is not in (0, 1)
     */
    public static JudgmentSplit of(
            Map<String, Map<String, Integer>> judged, double holdOut, long seed) {
        if (!(holdOut > 0 && holdOut < 1)) {
            throw new IllegalArgumentException(
                    "illegal holdOut: " + holdOut + ", must be in (0, 1)");
        }
        List<String> queries = new ArrayList<>();
        judged.forEach(
                (q, docs) -> {
                    if (docs.values().stream().anyMatch(g -> g > 0)) {
                        queries.add(q);
                    }
                });
        if (queries.isEmpty()) {
            return new JudgmentSplit(List.of(), List.of(), List.of());
        }
        List<String> documents =
                new ArrayList<>(relevantDocuments(queries.stream().map(judged::get).toList()));
        documents.sort(byKey(seed ^ DOCUMENT_SALT));
        Set<String> heldDocuments =
                new HashSet<>(documents.subList(0, share(documents.size(), holdOut / 2, 1)));

        List<String> held = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        for (String q : queries) {
            (sharesRelevantDocument(judged.get(q), heldDocuments) ? held : rest).add(q);
        }
        rest.sort(byKey(seed));
        int byQuery = share(rest.size(), holdOut / 2, 0);
        held.addAll(rest.subList(0, byQuery));
        List<String> train = new ArrayList<>(rest.subList(byQuery, rest.size()));

        Set<String> trained = relevantDocuments(train.stream().map(judged::get).toList());
        List<String> seen = new ArrayList<>();
        List<String> unseen = new ArrayList<>();
        held.sort(Comparator.naturalOrder());
        for (String q : held) {
            (sharesRelevantDocument(judged.get(q), trained) ? seen : unseen).add(q);
        }
        train.sort(Comparator.naturalOrder());
        return new JudgmentSplit(train, seen, unseen);
    }

    /** All held-back queries, seen first. */
    public List<String> held() {
        List<String> all = new ArrayList<>(heldSeen);
        all.addAll(heldUnseen);
        return all;
    }

    /** The documents judged relevant (grade {@code >= 1}) in any of {@code judgments}. */
    public static Set<String> relevantDocuments(Collection<Map<String, Integer>> judgments) {
        Set<String> out = new TreeSet<>();
        for (Map<String, Integer> docs : judgments) {
            docs.forEach(
                    (doc, grade) -> {
                        if (grade > 0) {
                            out.add(doc);
                        }
                    });
        }
        return out;
    }

    /** Whether one of the documents {@code judged} relevant is in {@code documents}. */
    public static boolean sharesRelevantDocument(
            Map<String, Integer> judged, Set<String> documents) {
        for (Map.Entry<String, Integer> e : judged.entrySet()) {
            if (e.getValue() > 0 && documents.contains(e.getKey())) {
                return true;
            }
        }
        return false;
    }

    /** Keeps the document hash independent of the query hash under the same seed. */
    private static final long DOCUMENT_SALT = 0x5DEECE66DL;

    private static int share(int n, double share, int atLeast) {
        return Math.min(n, Math.max(atLeast, (int) Math.round(n * share)));
    }

    /** Ordered by a uniform value in [0, 1) fixed by the text and the seed, then by the text. */
    private static Comparator<String> byKey(long seed) {
        return Comparator.comparingDouble(
                        (String s) -> new Random(seed * 31 + s.hashCode()).nextDouble())
                .thenComparing(Comparator.naturalOrder());
    }
}
