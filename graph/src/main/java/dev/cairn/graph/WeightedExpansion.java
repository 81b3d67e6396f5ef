package dev.cairn.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
    final Map<NodeRef, Step> best = new HashMap<>();

    /**
     * Last edge of a node's best path, linked to the path it extends. Immutable, so a path stays
     * consistent (its product is the score recorded with it) when an earlier node improves later.
     */
    record Step(NodeRef node, Edge edge, Step previous, int hops) {}

    private WeightedExpansion() {}

    static double weight(Edge edge, ProximityConfig config) {
        return edge.structural ? 1.0 : config.weight(edge.type) * edge.confidence;
    }

    /** Expansion from seeds that all start at 1. */
    static WeightedExpansion run(
            Graph<NodeRef, Edge> graph, Collection<NodeRef> seeds, ProximityConfig config) {
        Map<NodeRef, Double> start = new LinkedHashMap<>();
        seeds.forEach(seed -> start.put(seed, 1.0));
        return run(graph, start, config);
    }

    /**
     * Expansion from seeds with their starting scores in (0, 1]: a seed named less specifically
     * (its name in many chunks) starts lower, so everything it reaches scores lower.
     */
    static WeightedExpansion run(
            Graph<NodeRef, Edge> graph, Map<NodeRef, Double> seeds, ProximityConfig config) {
        WeightedExpansion x = new WeightedExpansion();
        Set<NodeRef> frontier = new LinkedHashSet<>();
        for (NodeRef seed : seeds.keySet()) {
            x.score.put(seed, seeds.get(seed));
            x.best.put(seed, new Step(seed, null, null, 0));
            frontier.add(seed);
        }
        for (int hop = 1; hop <= config.maxHops() && !frontier.isEmpty(); hop++) {
            Set<NodeRef> next = new LinkedHashSet<>();
            for (NodeRef node : frontier) {
                double base = x.score.get(node) * config.hopDecay();
                Step at = x.best.get(node);
                x.relax(graph, node, graph.outgoingEdgesOf(node), false, base, at, config, next);
                x.relax(graph, node, graph.incomingEdgesOf(node), true, base, at, config, next);
            }
            frontier = x.beam(next, config.beamWidth());
        }
        return x;
    }

    private void relax(
            Graph<NodeRef, Edge> graph,
            NodeRef node,
            Set<Edge> edges,
            boolean incoming,
            double base,
            Step at,
            ProximityConfig config,
            Set<NodeRef> next) {
        for (Edge edge : edges) {
            double w = weight(edge, config);
            double s = base * w;
            if (w <= 0.0 || s < config.minScore()) {
                continue;
            }
            NodeRef other = incoming ? graph.getEdgeSource(edge) : graph.getEdgeTarget(edge);
            if (s > score.getOrDefault(other, 0.0)) {
                score.put(other, s);
                best.put(other, new Step(other, edge, at, at.hops() + 1));
                if (other.kind() != NodeKind.CHUNK) {
                    next.add(other);
                }
            }
        }
    }

    /** The best {@code width} nodes of a frontier, score desc then node asc. */
    private Set<NodeRef> beam(Set<NodeRef> frontier, int width) {
        if (frontier.size() <= width) {
            return frontier;
        }
        record Candidate(NodeRef node, double score) {}
        List<Candidate> candidates = new ArrayList<>(frontier.size());
        for (NodeRef node : frontier) {
            candidates.add(new Candidate(node, score.get(node)));
        }
        candidates.sort(
                Comparator.comparingDouble(Candidate::score)
                        .reversed()
                        .thenComparing(Candidate::node));
        Set<NodeRef> kept = new LinkedHashSet<>();
        for (int i = 0; i < width; i++) {
            kept.add(candidates.get(i).node());
        }
        return kept;
    }

    /**
     * Expansion from several seeds, one run per seed, combined per node by noisy-OR {@code 1 -
     * prod_i (1 - s_i)}: a chunk close to two named entities beats one close to a single entity,
     * and the score stays in [0, 1]. The explanation is the path from the best seed.
     */
    static WeightedExpansion runPerSeed(
            Graph<NodeRef, Edge> graph, Map<NodeRef, Double> seeds, ProximityConfig config) {
        if (seeds.size() == 1) {
            return run(graph, seeds, config);
        }
        WeightedExpansion combined = new WeightedExpansion();
        Map<NodeRef, Double> miss = new HashMap<>();
        for (Map.Entry<NodeRef, Double> seed : seeds.entrySet()) {
            WeightedExpansion one = run(graph, Map.of(seed.getKey(), seed.getValue()), config);
            one.score.forEach(
                    (node, s) -> {
                        miss.merge(node, 1.0 - s, (a, b) -> a * b);
                        Double best = combined.score.get(node);
                        if (best == null || s > best) {
                            combined.score.put(node, s);
                            combined.best.put(node, one.best.get(node));
                        }
                    });
        }
        miss.forEach((node, m) -> combined.score.put(node, 1.0 - m));
        return combined;
    }

    /** Edges on the best path to a node. */
    int hops(NodeRef node) {
        return best.get(node).hops();
    }

    /** The best path to a node, as edges in walking order. */
    List<GraphRelation> path(NamespaceGraph ns, NodeRef node, ProximityConfig config) {
        ArrayDeque<GraphRelation> steps = new ArrayDeque<>();
        for (Step at = best.get(node); at != null && at.edge() != null; at = at.previous()) {
            Edge edge = at.edge();
            steps.addFirst(
                    new GraphRelation(
                            ns.graph.getEdgeSource(edge),
                            ns.graph.getEdgeTarget(edge),
                            edge.type,
                            Math.min(1.0, weight(edge, config))));
        }
        return new ArrayList<>(steps);
    }
}
