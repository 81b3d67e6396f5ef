package dev.cairn.retrieval;

import dev.cairn.retrieval.fusion.ScoredId;
import java.util.List;
import java.util.Map;

/**
 * The graph signal as retrieval sees it: chunks ranked by entity-graph proximity to what the query
 * names, with the entities and relations that explain the ranking. Implementations are thread-safe.
 *
 * <p>A ranker that keeps derived state follows the store's change log itself (a {@link
 * dev.cairn.store.DerivedIndex}).
 */
public interface GraphRanker {

    /** No graph: the signal is skipped. */
    GraphRanker NONE = (namespace, query, topN) -> new Ranking(List.of(), GraphContext.EMPTY);

    Ranking rank(String namespace, String query, int topN);

    /**
     * The documents that declare they supersede {@code documentId} (front matter {@code supersedes}
     * or {@code POST relations}); the default knows none.
     */
    default java.util.Set<String> successors(String namespace, String documentId) {
        return java.util.Set.of();
    }

    /**
     * Chunks best first, the graph context behind them, and each chunk's path from a linked entity
     * (relations in walking order).
     */
    record Ranking(
            List<ScoredId> chunks,
            GraphContext context,
            Map<String, List<GraphContext.TraversedRelation>> paths) {
        public Ranking {
            chunks = List.copyOf(chunks);
            java.util.Objects.requireNonNull(context, "context");
            paths = Map.copyOf(paths);
        }

        /** A ranking without paths. */
        public Ranking(List<ScoredId> chunks, GraphContext context) {
            this(chunks, context, Map.of());
        }
    }
}
