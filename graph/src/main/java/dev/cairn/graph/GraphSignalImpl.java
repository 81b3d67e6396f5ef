package dev.cairn.graph;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@link GraphSignal} over an {@link InMemoryEntityGraph}.
 *
 * <p>Thread-safe: stateless apart from its immutable config.
 */
final class GraphSignalImpl implements GraphSignal {

    private final InMemoryEntityGraph graph;
    private final ProximityConfig config;

    GraphSignalImpl(InMemoryEntityGraph graph, ProximityConfig config) {
        this.graph = Objects.requireNonNull(graph, "graph");
        this.config = Objects.requireNonNull(config, "config");
    }

    @Override
    public ProximityConfig config() {
        return config;
    }

    @Override
    public List<LinkedEntity> link(String namespace, String text) {
        NamespaceGraph ns = graph.namespace(namespace);
        return InMemoryEntityGraph.read(ns, () -> linkLocked(ns, text));
    }

    private static List<LinkedEntity> linkLocked(NamespaceGraph ns, String text) {
        Map<String, LinkedEntity> linked = new LinkedHashMap<>();
        for (Mention m : EntityExtractor.linker(ns.gazetteer).extract(text).mentions()) {
            if (linked.containsKey(m.entityId())
                    || !ns.graph.containsVertex(new NodeRef(NodeKind.ENTITY, m.entityId()))) {
                continue;
            }
            Entity e = ns.gazetteer.entity(m.entityId()).orElseThrow();
            linked.put(e.id(), new LinkedEntity(e.id(), e.name(), e.kind(), m.surface()));
        }
        return List.copyOf(linked.values());
    }

    @Override
    public GraphResult rank(String namespace, String queryText, int topN) {
        if (topN < 1) {
            throw new IllegalArgumentException("illegal topN: " + topN + ", must be >= 1");
        }
        Objects.requireNonNull(queryText, "queryText");
        NamespaceGraph ns = graph.namespace(namespace);
        return InMemoryEntityGraph.read(ns, () -> rankLocked(ns, queryText, topN));
    }

    /** A chunk's score and explanation while ranking. */
    private record Scored(
            String chunkId, String documentId, double score, int hops, List<GraphRelation> path) {}

    private GraphResult rankLocked(NamespaceGraph ns, String queryText, int topN) {
        List<LinkedEntity> linked = linkLocked(ns, queryText);
        if (linked.isEmpty()) {
            return new GraphResult(List.of(), linked, List.of(), config.strategy());
        }
        List<NodeRef> seeds =
                linked.stream().map(e -> new NodeRef(NodeKind.ENTITY, e.id())).toList();
        WeightedExpansion expansion = WeightedExpansion.runPerSeed(ns.graph, seeds, config);
        Map<NodeRef, Double> scores =
                switch (config.strategy()) {
                    case WEIGHTED_EXPANSION -> expansion.score;
                    case PERSONALIZED_PAGERANK ->
                            normalised(
                                    PersonalizedPageRank.run(
                                            ns.graph, seeds, expansion.score.keySet(), config));
                };
        Map<String, Scored> chunks = new HashMap<>();
        for (Map.Entry<NodeRef, Double> e : scores.entrySet()) {
            NodeRef node = e.getKey();
            if (node.kind() != NodeKind.CHUNK || e.getValue() <= 0.0) {
                continue;
            }
            String doc = ns.documentOfChunk.get(node.id());
            chunks.put(
                    node.id(),
                    new Scored(
                            node.id(),
                            doc,
                            e.getValue(),
                            expansion.hops(node),
                            expansion.path(ns, node, config)));
        }
        applySupersession(ns, chunks);
        List<Scored> ranked =
                chunks.values().stream()
                        .filter(s -> s.score() > 0.0)
                        .sorted(
                                Comparator.comparingDouble(Scored::score)
                                        .reversed()
                                        .thenComparing(Scored::chunkId))
                        .limit(topN)
                        .toList();
        List<GraphHit> hits = new ArrayList<>(ranked.size());
        Set<GraphRelation> relations = new LinkedHashSet<>();
        for (Scored s : ranked) {
            hits.add(
                    new GraphHit(
                            s.chunkId(),
                            s.documentId(),
                            Math.min(1.0, s.score()),
                            hits.size() + 1,
                            s.hops(),
                            s.path()));
            for (GraphRelation r : s.path()) {
                if (r.from().kind() != NodeKind.CHUNK && r.to().kind() != NodeKind.CHUNK) {
                    relations.add(r);
                }
            }
        }
        return new GraphResult(hits, linked, List.copyOf(relations), config.strategy());
    }

    /** PageRank mass scaled so the best chunk scores 1. */
    private static Map<NodeRef, Double> normalised(Map<NodeRef, Double> rank) {
        double max = 0.0;
        for (Map.Entry<NodeRef, Double> e : rank.entrySet()) {
            if (e.getKey().kind() == NodeKind.CHUNK) {
                max = Math.max(max, e.getValue());
            }
        }
        if (max <= 0.0) {
            return rank;
        }
        Map<NodeRef, Double> out = new HashMap<>();
        double scale = max;
        rank.forEach((k, v) -> out.put(k, v / scale));
        return out;
    }

    /**
     * Successors first take at least a superseded chunk's score times the {@code supersedes} weight
     * and one decay; then superseded chunks are penalised and capped below their successors.
     */
    private void applySupersession(NamespaceGraph ns, Map<String, Scored> chunks) {
        Map<String, List<NodeRef>> successorsOf = new HashMap<>();
        for (Scored s : List.copyOf(chunks.values())) {
            List<NodeRef> successors =
                    successorsOf.computeIfAbsent(
                            s.documentId(), d -> ns.successors(NodeRef.document(d)));
            double boost = s.score() * config.weight(RelationType.SUPERSEDES) * config.hopDecay();
            if (boost <= 0.0) {
                continue;
            }
            NodeRef superseded = NodeRef.document(s.documentId());
            for (NodeRef successor : successors) {
                for (String chunkId : ns.chunksByDocument.getOrDefault(successor.id(), List.of())) {
                    Scored current = chunks.get(chunkId);
                    if (current != null && current.score() >= boost) {
                        continue;
                    }
                    List<GraphRelation> path = new ArrayList<>(s.path());
                    path.add(
                            new GraphRelation(
                                    NodeRef.chunk(s.chunkId()),
                                    superseded,
                                    RelationType.PART_OF,
                                    1.0));
                    path.add(
                            new GraphRelation(
                                    successor,
                                    superseded,
                                    RelationType.SUPERSEDES,
                                    config.weight(RelationType.SUPERSEDES)));
                    path.add(
                            new GraphRelation(
                                    NodeRef.chunk(chunkId), successor, RelationType.PART_OF, 1.0));
                    chunks.put(
                            chunkId,
                            new Scored(chunkId, successor.id(), boost, s.hops() + 3, path));
                }
            }
        }
        Map<String, Double> bestOfDocument = new HashMap<>();
        for (Scored s : chunks.values()) {
            bestOfDocument.merge(s.documentId(), s.score(), Math::max);
        }
        for (Scored s : List.copyOf(chunks.values())) {
            List<NodeRef> successors =
                    successorsOf.computeIfAbsent(
                            s.documentId(), d -> ns.successors(NodeRef.document(d)));
            if (successors.isEmpty()) {
                continue;
            }
            double penalised = s.score() * config.supersededPenalty();
            for (NodeRef successor : successors) {
                Double best = bestOfDocument.get(successor.id());
                if (best != null) {
                    penalised = Math.min(penalised, best * config.supersededPenalty());
                }
            }
            chunks.put(
                    s.chunkId(),
                    new Scored(s.chunkId(), s.documentId(), penalised, s.hops(), s.path()));
        }
    }
}
