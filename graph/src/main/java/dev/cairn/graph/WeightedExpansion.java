package dev.cairn.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jgrapht.Graph;

/**
 * Weighted expansion with hop decay ({@link Proximity#WEIGHTED_EXPANSION}): the best path score
 * {@code prod w(e) * decay^hops} of every node within {@code maxHops} of the seeds.
 *
 * <p>One relaxation round per hop (Bellman-Ford bounded to k rounds), only from nodes whose score
 * improved in the previous round; chunks are sinks (a chunk does not lead on to the other entities
 * it mentions). Edges of weight 0 are never walked. Edges are walked in both directions: "runbook
 * governs ledger-db" brings a query about ledger-db to the runbook.
 *
 * <p>Not thread-safe; one instance per ranking, under the namespace's read lock.
 */
final class WeightedExpansion {

    final Map<NodeRef, Double> score = new HashMap<>();
    final Map<NodeRef, Edge> via = new HashMap<>();
    final Map<NodeRef, NodeRef> parent = new HashMap<>();
    final Map<NodeRef, Integer> hops = new HashMap<>();

    private WeightedExpansion() {}

    static double weight(Edge edge, ProximityConfig config) {
        return edge.structural ? 1.0 : config.weight(edge.type) * edge.confidence;
    }

    static WeightedExpansion run(
            Graph<NodeRef, Edge> graph, Collection<NodeRef> seeds, ProximityConfig config) {
        WeightedExpansion x = new WeightedExpansion();
        Set<NodeRef> frontier = new LinkedHashSet<>();
        for (NodeRef seed : seeds) {
            x.score.put(seed, 1.0);
            x.hops.put(seed, 0);
            frontier.add(seed);
        }
        for (int hop = 1; hop <= config.maxHops() && !frontier.isEmpty(); hop++) {
            Set<NodeRef> next = new LinkedHashSet<>();
            for (NodeRef node : frontier) {
                if (node.kind() == NodeKind.CHUNK) {
                    continue;
                }
                double base = x.score.get(node) * config.hopDecay();
                for (Edge edge : graph.edgesOf(node)) {
                    double w = weight(edge, config);
                    double s = base * w;
                    if (w <= 0.0 || s < config.minScore()) {
                        continue;
                    }
                    NodeRef source = graph.getEdgeSource(edge);
                    NodeRef other = source.equals(node) ? graph.getEdgeTarget(edge) : source;
                    if (s > x.score.getOrDefault(other, 0.0)) {
                        x.score.put(other, s);
                        x.via.put(other, edge);
                        x.parent.put(other, node);
                        x.hops.put(other, hop);
                        next.add(other);
                    }
                }
            }
            frontier = next;
        }
        return x;
    }

    /** The best path to a node, as edges in walking order. */
    List<GraphRelation> path(NamespaceGraph ns, NodeRef node, ProximityConfig config) {
        ArrayDeque<GraphRelation> steps = new ArrayDeque<>();
        NodeRef at = node;
        int guard = 0;
        while (via.containsKey(at) && guard++ <= config.maxHops()) {
            Edge edge = via.get(at);
            steps.addFirst(
                    new GraphRelation(
                            ns.graph.getEdgeSource(edge),
                            ns.graph.getEdgeTarget(edge),
                            edge.type,
                            Math.min(1.0, weight(edge, config))));
            at = parent.get(at);
        }
        return new ArrayList<>(steps);
    }
}
