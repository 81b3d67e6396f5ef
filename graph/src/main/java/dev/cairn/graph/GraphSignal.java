package dev.cairn.graph;

import java.util.List;

/**
 * The graph retrieval signal: query text -> linked entities -> proximity -> ranked chunks.
 *
 * <p>Default strategy: {@link Proximity#WEIGHTED_EXPANSION}. On the 33-runbook fixture it puts the
 * expected runbook first for more queries than personalised PageRank and is faster on the synthetic
 * 50k-entity graph (numbers in {@code ProximityComparisonTest} and {@code GraphSignalBenchmark});
 * its scores respect the relation weights directly (a {@code governs} edge beats a {@code mentions}
 * edge whatever the degrees), while PageRank divides a node's mass among all its edges, so a
 * runbook with many chunks or an entity with many mentions dilutes the authoritative path; and each
 * score is one path, which is the explanation shown.
 *
 * <p>Rules common to both: an edge of weight 0 ({@code contradicts}) is never walked, so it never
 * raises a hit; chunks of a document superseded by another score at most {@code supersededPenalty}
 * times the successor's best chunk, and the successor's chunks get at least the superseded chunk's
 * score times the {@code supersedes} weight and one hop decay.
 *
 * <p>Thread-safe: rankings run concurrently under the namespace's read lock.
 */
public interface GraphSignal {

    /**
     * The signal over a graph with {@link ProximityConfig#defaults()}.
     *
     * @param graph a graph from {@link EntityGraph#inMemory()}
     * @return the signal
     */
    static GraphSignal create(EntityGraph graph) {
        return create(graph, ProximityConfig.defaults());
    }

    /**
     * The signal over a graph.
     *
     * @param graph a graph from {@link EntityGraph#inMemory()}
     * @param config settings
     * @return the signal
     */
    static GraphSignal create(EntityGraph graph, ProximityConfig config) {
        if (!(graph instanceof InMemoryEntityGraph inMemory)) {
            throw new IllegalArgumentException(
                    "illegal graph: "
                            + graph.getClass().getName()
                            + ", must be EntityGraph.inMemory()");
        }
        return new GraphSignalImpl(inMemory, config);
    }

    /**
     * Ranks chunks by proximity to the entities the query names.
     *
     * @param namespace namespace
     * @param queryText the query
     * @param topN at most this many hits, {@code >= 1}
     * @return hits, linked entities and relations; no hits when the query names no known entity
     */
    GraphResult rank(String namespace, String queryText, int topN);

    /**
     * The entities a text names that the namespace's graph holds.
     *
     * @param namespace namespace
     * @param text query text
     * @return linked entities in text order, without duplicates
     */
    List<LinkedEntity> link(String namespace, String text);

    /**
     * Settings in use.
     *
     * @return the config
     */
    ProximityConfig config();
}
