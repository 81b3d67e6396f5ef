package dev.cairn.retrieval;

import dev.cairn.retrieval.fusion.ScoredId;
import java.util.List;

/**
 * The graph signal as retrieval sees it: chunks ranked by entity-graph proximity to what the query
 * names, with the entities and relations that explain the ranking. Implementations are thread-safe.
 */
public interface GraphRanker {

    /** No graph: the signal is skipped. */
    GraphRanker NONE = (namespace, query, topN) -> new Ranking(List.of(), GraphContext.EMPTY);

    Ranking rank(String namespace, String query, int topN);

    /** Chunks best first, and the graph context behind them. */
    record Ranking(List<ScoredId> chunks, GraphContext context) {
        public Ranking {
            chunks = List.copyOf(chunks);
        }
    }
}
