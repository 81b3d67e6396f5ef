package dev.cairn.graph;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@link EntityGraph} in memory: one {@link NamespaceGraph} per namespace.
 *
 * <p>Thread-safe (see {@link EntityGraph}).
 */
final class InMemoryEntityGraph implements EntityGraph {

    private static final System.Logger LOG = System.getLogger(EntityGraph.class.getName());

    private final Map<String, NamespaceGraph> namespaces = new ConcurrentHashMap<>();

    NamespaceGraph namespace(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return namespaces.computeIfAbsent(namespace, k -> new NamespaceGraph());
    }

    /** The namespaces by name, for {@link GraphSnapshot}. */
    Map<String, NamespaceGraph> namespaces() {
        return namespaces;
    }

    static <T> T read(NamespaceGraph ns, Supplier<T> action) {
        Lock lock = ns.lock.readLock();
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    private static <T> T write(NamespaceGraph ns, Supplier<T> action) {
        Lock lock = ns.lock.writeLock();
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Gazetteer gazetteer(String namespace) {
        return namespace(namespace).gazetteer;
    }

    @Override
    public EntityExtractor extractor(String namespace) {
        return EntityExtractor.rules(gazetteer(namespace));
    }

    @Override
    public IngestSummary ingest(String namespace, GraphDocument document) {
        NamespaceGraph ns = namespace(namespace);
        write(
                ns,
                () -> {
                    for (EntityDeclaration declaration : document.entities()) {
                        Gazetteer.Declared declared = ns.gazetteer.declare(declaration);
                        ns.merge(declared.entity().id(), declared.absorbed());
                    }
                    return null;
                });
        // Extraction runs outside the lock: it only touches the (thread-safe) gazetteer.
        EntityExtractor extractor = EntityExtractor.rules(ns.gazetteer);
        List<ChunkEntities> chunks = new ArrayList<>();
        List<Relation> relations = new ArrayList<>();
        TreeSet<String> entityIds = new TreeSet<>();
        int mentions = 0;
        for (GraphDocument.Chunk chunk : document.chunks()) {
            Extraction extraction = extractor.extract(chunk.text());
            chunks.add(new ChunkEntities(chunk.id(), extraction.mentions()));
            relations.addAll(extraction.relations());
            extraction.mentions().forEach(m -> entityIds.add(m.entityId()));
            mentions += extraction.mentions().size();
        }
        NodeRef self = NodeRef.document(document.id());
        Map<RelationType, List<String>> declared = new EnumMap<>(RelationType.class);
        declared.putAll(document.relations());
        declared.forEach(
                (type, values) ->
                        values.forEach(
                                v ->
                                        relations.add(
                                                Relation.of(self, type, NodeRef.unresolved(v)))));
        upsertDocument(namespace, document.id(), chunks, relations);
        LOG.log(
                Level.DEBUG,
                "graph ingest {0}/{1}: {2} chunks, {3} mentions, {4} relations",
                namespace,
                document.id(),
                chunks.size(),
                mentions,
                relations.size());
        return new IngestSummary(document.id(), List.copyOf(entityIds), mentions, relations);
    }

    @Override
    public void upsertDocument(
            String namespace,
            String documentId,
            List<ChunkEntities> chunks,
            List<Relation> relations) {
        Objects.requireNonNull(documentId, "documentId");
        List<ChunkEntities> chunkCopy = List.copyOf(chunks);
        List<Relation> relationCopy = List.copyOf(relations);
        NamespaceGraph ns = namespace(namespace);
        write(
                ns,
                () -> {
                    ns.upsert(documentId, chunkCopy, relationCopy);
                    return null;
                });
    }

    @Override
    public boolean removeDocument(String namespace, String documentId) {
        NamespaceGraph ns = namespaces.get(namespace);
        return ns != null && write(ns, () -> ns.remove(documentId));
    }

    @Override
    public GraphRelation addRelation(String namespace, Relation relation) {
        NamespaceGraph ns = namespace(namespace);
        return write(ns, () -> ns.addApiRelation(relation));
    }

    @Override
    public NodeRef locate(String namespace, NodeRef ref) {
        NamespaceGraph ns = namespace(namespace);
        return read(ns, () -> ns.peek(ref));
    }

    @Override
    public boolean removeRelation(String namespace, Relation relation) {
        NamespaceGraph ns = namespaces.get(namespace);
        return ns != null && write(ns, () -> ns.removeApiRelation(relation));
    }

    @Override
    public void dropNamespace(String namespace) {
        namespaces.remove(namespace);
    }

    @Override
    public List<EntitySummary> searchEntities(String namespace, String query, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("illegal limit: " + limit + ", must be >= 1");
        }
        NamespaceGraph ns = namespaces.get(namespace);
        if (ns == null) {
            return List.of();
        }
        String q = query == null ? "" : query.strip().toLowerCase(Locale.ROOT);
        String qKey = Canonical.key(q);
        record Match(EntitySummary summary, int tier) {}
        return read(
                ns,
                () -> {
                    List<Match> matches = new ArrayList<>();
                    for (Entity e : ns.gazetteer.entities()) {
                        NodeRef node = new NodeRef(NodeKind.ENTITY, e.id());
                        if (!ns.graph.containsVertex(node)) {
                            continue;
                        }
                        int tier = q.isEmpty() ? 0 : tier(e.name(), q, qKey);
                        for (String alias : e.aliases()) {
                            tier = Math.min(tier, tier(alias, q, qKey));
                        }
                        if (tier < 3) {
                            matches.add(new Match(summary(ns, e), tier));
                        }
                    }
                    return matches.stream()
                            .sorted(
                                    Comparator.comparingInt(Match::tier)
                                            .thenComparing(
                                                    m -> m.summary().degree(),
                                                    Comparator.reverseOrder())
                                            .thenComparing(m -> m.summary().id()))
                            .limit(limit)
                            .map(Match::summary)
                            .toList();
                });
    }

    /** 0 exact, 1 prefix, 2 contains, 3 no match. */
    private static int tier(String name, String q, String qKey) {
        String lower = name.toLowerCase(Locale.ROOT);
        String key = Canonical.key(name);
        if (lower.equals(q) || (!qKey.isEmpty() && key.equals(qKey))) {
            return 0;
        }
        if (lower.startsWith(q) || (!qKey.isEmpty() && key.startsWith(qKey))) {
            return 1;
        }
        if (lower.contains(q) || (!qKey.isEmpty() && key.contains(qKey))) {
            return 2;
        }
        return 3;
    }

    private static EntitySummary summary(NamespaceGraph ns, Entity e) {
        return new EntitySummary(
                e.id(),
                e.name(),
                e.kind(),
                e.aliases(),
                ns.graph.degreeOf(new NodeRef(NodeKind.ENTITY, e.id())));
    }

    @Override
    public Optional<EntityDetail> entity(String namespace, String id) {
        NamespaceGraph ns = namespaces.get(namespace);
        if (ns == null) {
            return Optional.empty();
        }
        return read(
                ns,
                () ->
                        ns.entityOf(id)
                                .map(
                                        e -> {
                                            NodeRef node = new NodeRef(NodeKind.ENTITY, e.id());
                                            List<GraphRelation> relations = new ArrayList<>();
                                            int mentionedBy = 0;
                                            for (Edge edge : ns.graph.edgesOf(node)) {
                                                if (edge.type == RelationType.MENTIONS) {
                                                    mentionedBy++;
                                                } else if (!edge.structural) {
                                                    relations.add(relation(ns, edge));
                                                }
                                            }
                                            Function<GraphRelation, NodeRef> other =
                                                    r -> r.from().equals(node) ? r.to() : r.from();
                                            relations.sort(
                                                    Comparator.comparingDouble(
                                                                    GraphRelation::weight)
                                                            .reversed()
                                                            .thenComparing(other)
                                                            .thenComparing(GraphRelation::type));
                                            return new EntityDetail(
                                                    summary(ns, e), relations, mentionedBy);
                                        }));
    }

    @Override
    public Optional<DocumentGraph> document(String namespace, String documentId) {
        NamespaceGraph ns = namespaces.get(namespace);
        if (ns == null) {
            return Optional.empty();
        }
        return read(
                ns,
                () -> {
                    List<Edge> owned = ns.edgesByOrigin.get(documentId);
                    if (owned == null || documentId.equals(Edge.API_ORIGIN)) {
                        return Optional.empty();
                    }
                    Map<String, EntitySummary> mentioned = new TreeMap<>();
                    List<GraphRelation> relations = new ArrayList<>();
                    for (Edge edge : owned) {
                        // an edge moved by an entity merge is replaced, not kept in the list
                        if (edge.structural || !ns.graph.containsEdge(edge)) {
                            continue;
                        }
                        if (edge.type == RelationType.MENTIONS) {
                            ns.entityOf(ns.graph.getEdgeTarget(edge).id())
                                    .ifPresent(e -> mentioned.putIfAbsent(e.id(), summary(ns, e)));
                        } else {
                            relations.add(relation(ns, edge));
                        }
                    }
                    return Optional.of(
                            new DocumentGraph(List.copyOf(mentioned.values()), relations));
                });
    }

    @Override
    public List<GraphRelation> relations(String namespace, RelationType type) {
        NamespaceGraph ns = namespaces.get(namespace);
        if (ns == null) {
            return List.of();
        }
        return read(
                ns,
                () ->
                        ns.graph.edgeSet().stream()
                                .filter(e -> e.type == type && !e.structural)
                                .map(e -> relation(ns, e))
                                .toList());
    }

    static GraphRelation relation(NamespaceGraph ns, Edge edge) {
        return new GraphRelation(
                ns.graph.getEdgeSource(edge),
                ns.graph.getEdgeTarget(edge),
                edge.type,
                edge.defaultWeight());
    }

    @Override
    public Stats stats(String namespace) {
        NamespaceGraph ns = namespaces.get(namespace);
        if (ns == null) {
            return new Stats(0, 0, 0, 0);
        }
        return read(
                ns,
                () -> {
                    int[] counts = new int[NodeKind.values().length];
                    ns.graph.vertexSet().forEach(v -> counts[v.kind().ordinal()]++);
                    return new Stats(
                            counts[NodeKind.ENTITY.ordinal()],
                            counts[NodeKind.DOCUMENT.ordinal()],
                            counts[NodeKind.CHUNK.ordinal()],
                            ns.graph.edgeSet().size());
                });
    }
}
