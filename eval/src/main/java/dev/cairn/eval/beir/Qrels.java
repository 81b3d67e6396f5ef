package dev.cairn.eval.beir;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Relevance judgments: query id to (document id to graded relevance). Immutable.
 *
 * @param judgments per query, per judged document, its relevance (0 = judged not relevant)
 */
public record Qrels(Map<String, Map<String, Integer>> judgments) {

    public Qrels {
        Map<String, Map<String, Integer>> copy = new LinkedHashMap<>();
        judgments.forEach(
                (q, docs) -> copy.put(q, Collections.unmodifiableMap(new LinkedHashMap<>(docs))));
        judgments = Collections.unmodifiableMap(copy);
    }

    /** Judged query ids, in file order. */
    public Set<String> queryIds() {
        return judgments.keySet();
    }

    /** Judgments of one query; empty when it has none. */
    public Map<String, Integer> of(String queryId) {
        return judgments.getOrDefault(queryId, Map.of());
    }
}
