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

    /**
     * Extracted (undeclared) entities a query may link to: surface forms specific enough that a
     * match means the query names that thing. Capitalised names and acronyms extracted from prose
     * are not: on SciFact (first 420 documents, 74 train queries) linking to them took hybrid
     * nDCG@10 from 0.872 to 0.795, while declared entities carry the runbook fixture's wins.
     */
    static final java.util.Set<EntityKind> SELF_EVIDENT_KINDS =
            java.util.EnumSet.of(EntityKind.ALERT, EntityKind.HOST, EntityKind.IDENTIFIER);

    @Override
    public List<LinkedEntity> link(String namespace, String text) {
        NamespaceGraph ns = graph.namespace(namespace);
        return InMemoryEntityGraph.read(ns, () -> linkLocked(ns, text));
    }

    /**
     * Below this many chunks a namespace's mention counts are no evidence of how common a name is:
     * every extracted name is taken as specific.
     */
    static final int MIN_CHUNKS_FOR_SPECIFICITY = 100;

    /**
     * An extracted name mentioned by at most this share of a namespace's chunks is fully specific;
     * above it the specificity falls with the name's inverse chunk frequency.
     */
    static final double SPECIFIC_SHARE = 0.05;

    /** Extracted names less specific than this are not linked at all. */
    static final double MIN_SPECIFICITY = 0.5;

    private static List<LinkedEntity> linkLocked(NamespaceGraph ns, String text) {
        Map<String, LinkedEntity> linked = new LinkedHashMap<>();
        for (Mention m : EntityExtractor.linker(ns.gazetteer).extract(text).mentions()) {
            NodeRef node = new NodeRef(NodeKind.ENTITY, m.entityId());
            if (linked.containsKey(m.entityId()) || !ns.graph.containsVertex(node)) {
                continue;
            }
            Entity e = ns.gazetteer.entity(m.entityId()).orElseThrow();
            if (!e.declared() && !SELF_EVIDENT_KINDS.contains(e.kind())) {
                continue;
            }
            double specificity = e.declared() ? 1.0 : specificity(ns, node);
            if (specificity < MIN_SPECIFICITY) {
                continue;
            }
            linked.put(
                    e.id(), new LinkedEntity(e.id(), e.name(), e.kind(), m.surface(), specificity));
        }
        return List.copyOf(linked.values());
    }

    /**
     * How specifically an extracted name picks out its entity: {@code min(1, ln(N / df) / ln(1 /
     * SPECIFIC_SHARE))} with N the namespace's chunks and df the chunks that mention the entity
     * (its inverse chunk frequency, scaled so a name in at most 5% of the chunks scores 1, in 22%
     * scores 0.5, in all 0). A declared entity is specific by declaration.
     */
    static double specificity(NamespaceGraph ns, NodeRef entity) {
        int chunks = ns.documentOfChunk.size();
        if (chunks < MIN_CHUNKS_FOR_SPECIFICITY) {
            return 1.0;
        }
        int mentionedBy = 0;
        for (Edge edge : ns.graph.incomingEdgesOf(entity)) {
            if (edge.type == RelationType.MENTIONS) {
                mentionedBy++;
            }
        }
        if (mentionedBy == 0) {
            return 1.0;
        }
        double idf = Math.log((double) chunks / mentionedBy);
        return Math.max(Double.MIN_VALUE, Math.min(1.0, idf / Math.log(1.0 / SPECIFIC_SHARE)));
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
            String chunkId, String documentId, double score, int hops, Explain explain) {

        List<GraphRelation> path() {
            return explain.path();
        }
    }

    /** A path, computed only for the chunks that make the top N. */
    @FunctionalInterface
    private interface Explain {
        List<GraphRelation> path();
    }

    private GraphResult rankLocked(NamespaceGraph ns, String queryText, int topN) {
        List<LinkedEntity> linked = linkLocked(ns, queryText);
        if (linked.isEmpty()) {
            return new GraphResult(List.of(), linked, List.of(), config.strategy());
        }
        Map<NodeRef, Double> seeds = new LinkedHashMap<>();
        linked.forEach(e -> seeds.put(new NodeRef(NodeKind.ENTITY, e.id()), e.specificity()));
        WeightedExpansion expansion = WeightedExpansion.runPerSeed(ns.graph, seeds, config);
        Map<NodeRef, Double> scores =
                switch (config.strategy()) {
                    case WEIGHTED_EXPANSION -> expansion.score;
                    case PERSONALIZED_PAGERANK ->
                            normalised(
                                    PersonalizedPageRank.run(
                                            ns.graph,
                                            seeds.keySet(),
                                            expansion.score.keySet(),
                                            config));
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
                            () -> expansion.path(ns, node, config)));
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
            List<GraphRelation> path = s.path();
            hits.add(
                    new GraphHit(
                            s.chunkId(),
                            s.documentId(),
                            Math.min(1.0, s.score()),
                            hits.size() + 1,
                            s.hops(),
                            path));
            for (GraphRelation r : path) {
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
        // Best chunk per document: one successor lookup per document, one boost per pair.
        Map<String, Scored> bestOfDocument = new HashMap<>();
        for (Scored s : chunks.values()) {
            bestOfDocument.merge(s.documentId(), s, (a, b) -> better(a, b) ? a : b);
        }
        Map<String, List<NodeRef>> successorsOf = new HashMap<>();
        for (Scored s : List.copyOf(bestOfDocument.values())) {
            List<NodeRef> successors = ns.successors(NodeRef.document(s.documentId()));
            if (successors.isEmpty()) {
                continue;
            }
            successorsOf.put(s.documentId(), successors);
            double boost = s.score() * config.weight(RelationType.SUPERSEDES) * config.hopDecay();
            if (boost <= 0.0) {
                continue;
            }
            NodeRef superseded = NodeRef.document(s.documentId());
            for (NodeRef successor : successors) {
                Scored successorBest = bestOfDocument.get(successor.id());
                if (successorBest != null && successorBest.score() >= boost) {
                    continue;
                }
                for (String chunkId : ns.chunksByDocument.getOrDefault(successor.id(), List.of())) {
                    Scored current = chunks.get(chunkId);
                    if (current != null && current.score() >= boost) {
                        continue;
                    }
                    Explain explain =
                            () -> {
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
                                                NodeRef.chunk(chunkId),
                                                successor,
                                                RelationType.PART_OF,
                                                1.0));
                                return path;
                            };
                    Scored boosted =
                            new Scored(chunkId, successor.id(), boost, s.hops() + 3, explain);
                    chunks.put(chunkId, boosted);
                    bestOfDocument.merge(successor.id(), boosted, (a, b) -> better(a, b) ? a : b);
                }
            }
        }
        // Boosted successors may be superseded themselves.
        for (String doc : List.copyOf(bestOfDocument.keySet())) {
            if (!successorsOf.containsKey(doc)) {
                List<NodeRef> successors = ns.successors(NodeRef.document(doc));
                if (!successors.isEmpty()) {
                    successorsOf.put(doc, successors);
                }
            }
        }
        if (successorsOf.isEmpty()) {
            return;
        }
        Map<String, Double> cap = new HashMap<>();
        successorsOf.forEach(
                (doc, successors) -> {
                    double limit = Double.MAX_VALUE;
                    for (NodeRef successor : successors) {
                        Scored best = bestOfDocument.get(successor.id());
                        if (best != null) {
                            limit = Math.min(limit, best.score() * config.supersededPenalty());
                        }
                    }
                    cap.put(doc, limit);
                });
        for (Scored s : List.copyOf(chunks.values())) {
            Double limit = cap.get(s.documentId());
            if (limit != null) {
                double penalised = Math.min(s.score() * config.supersededPenalty(), limit);
                chunks.put(
                        s.chunkId(),
                        new Scored(s.chunkId(), s.documentId(), penalised, s.hops(), s.explain()));
            }
        }
    }

    /** Score desc, then chunk id asc. */
    private static boolean better(Scored a, Scored b) {
        return a.score() > b.score()
                || (a.score() == b.score() && a.chunkId().compareTo(b.chunkId()) < 0);
    }
}
