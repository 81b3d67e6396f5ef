package dev.cairn.graph;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jgrapht.Graph;

/**
 * Personalised PageRank on a local subgraph ({@link Proximity#PERSONALIZED_PAGERANK}).
 *
 * <p>{@code r = (1 - d) p + d (M^T r + dangling(r) p)}, where {@code p} is uniform over the seeds,
 * {@code M[u][v] = w(u, v) / sum_x w(u, x)} over the subgraph's edges walked in both directions,
 * and {@code d} the damping (Haveliwala 2002; the power iteration of JGraphT's {@code PageRank}).
 * The subgraph is what weighted expansion reaches within {@code maxHops}; edges of weight 0 are
 * left out. Stops after {@code maxIterations} or when the L1 change drops below {@link #TOLERANCE}.
 *
 * <p>Not thread-safe; call under the namespace's read lock.
 */
final class PersonalizedPageRank {

    /** Convergence threshold on the L1 change of the rank vector between iterations. */
    static final double TOLERANCE = 1e-6;

    private PersonalizedPageRank() {}

    static Map<NodeRef, Double> run(
            Graph<NodeRef, Edge> graph,
            Collection<NodeRef> seeds,
            Collection<NodeRef> subgraph,
            ProximityConfig config) {
        List<NodeRef> nodes = new ArrayList<>(subgraph);
        Map<NodeRef, Integer> index = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            index.put(nodes.get(i), i);
        }
        int n = nodes.size();
        int[][] targets = new int[n][];
        double[][] probabilities = new double[n][];
        for (int i = 0; i < n; i++) {
            NodeRef u = nodes.get(i);
            List<Integer> to = new ArrayList<>();
            List<Double> w = new ArrayList<>();
            double total = 0.0;
            for (Edge edge : graph.edgesOf(u)) {
                double weight = WeightedExpansion.weight(edge, config);
                NodeRef source = graph.getEdgeSource(edge);
                NodeRef other = source.equals(u) ? graph.getEdgeTarget(edge) : source;
                Integer j = index.get(other);
                // Walks stay on the subgraph; chunks are sinks there too, returning mass only
                // the way they came (to their document and entities).
                if (weight > 0.0 && j != null) {
                    to.add(j);
                    w.add(weight);
                    total += weight;
                }
            }
            targets[i] = new int[to.size()];
            probabilities[i] = new double[to.size()];
            for (int k = 0; k < to.size(); k++) {
                targets[i][k] = to.get(k);
                probabilities[i][k] = w.get(k) / total;
            }
        }
        double[] restart = new double[n];
        int seedCount = 0;
        for (NodeRef seed : seeds) {
            Integer i = index.get(seed);
            if (i != null) {
                seedCount++;
            }
        }
        for (NodeRef seed : seeds) {
            Integer i = index.get(seed);
            if (i != null) {
                restart[i] = 1.0 / seedCount;
            }
        }
        double d = config.damping();
        double[] rank = restart.clone();
        double[] next = new double[n];
        for (int iteration = 0; iteration < config.maxIterations(); iteration++) {
            double dangling = 0.0;
            java.util.Arrays.fill(next, 0.0);
            for (int i = 0; i < n; i++) {
                if (targets[i].length == 0) {
                    dangling += rank[i];
                    continue;
                }
                for (int k = 0; k < targets[i].length; k++) {
                    next[targets[i][k]] += d * rank[i] * probabilities[i][k];
                }
            }
            double change = 0.0;
            for (int i = 0; i < n; i++) {
                next[i] += ((1.0 - d) + d * dangling) * restart[i];
                change += Math.abs(next[i] - rank[i]);
            }
            double[] swap = rank;
            rank = next;
            next = swap;
            if (change < TOLERANCE) {
                break;
            }
        }
        Map<NodeRef, Double> scores = new HashMap<>();
        for (int i = 0; i < n; i++) {
            scores.put(nodes.get(i), rank[i]);
        }
        return scores;
    }
}
