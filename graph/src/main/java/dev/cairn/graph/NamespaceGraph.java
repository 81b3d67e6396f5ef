package dev.cairn.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.jgrapht.Graph;
import org.jgrapht.graph.builder.GraphTypeBuilder;

/**
 * One namespace: its JGraphT graph, gazetteer and bookkeeping of which document brought which edge.
 *
 * <p>Thread-safe through {@link #lock}: callers hold the read lock to read {@link #graph} and the
 * maps, the write lock to change them (methods here that change state expect the write lock held).
 * The gazetteer is thread-safe on its own.
 */
final class NamespaceGraph {

    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    final Graph<NodeRef, Edge> graph =
            GraphTypeBuilder.<NodeRef, Edge>directed()
                    .allowingMultipleEdges(true)
                    .allowingSelfLoops(false)
                    .weighted(true)
                    .buildGraph();
    final Gazetteer gazetteer = new Gazetteer();
    final Map<String, List<Edge>> edgesByOrigin = new HashMap<>();
    final Map<String, List<String>> chunksByDocument = new HashMap<>();
    final Map<String, String> documentOfChunk = new HashMap<>();

    /** Entity nodes created for UNRESOLVED relation ends that may later turn out documents. */
    final Set<String> placeholders = new HashSet<>();

    /** Write lock held. */
    void upsert(String documentId, List<ChunkEntities> chunks, List<Relation> relations) {
        removeOwned(documentId);
        NodeRef doc = NodeRef.document(documentId);
        graph.addVertex(doc);
        adoptPlaceholder(documentId, doc);
        List<Edge> owned = new ArrayList<>();
        List<String> chunkIds = new ArrayList<>();
        for (ChunkEntities chunk : chunks) {
            NodeRef c = NodeRef.chunk(chunk.chunkId());
            String previous = documentOfChunk.get(chunk.chunkId());
            if (previous != null && !previous.equals(documentId)) {
                throw new IllegalArgumentException(
                        "illegal chunk id: "
                                + chunk.chunkId()
                                + ", already a chunk of document "
                                + previous);
            }
            graph.addVertex(c);
            documentOfChunk.put(chunk.chunkId(), documentId);
            chunkIds.add(chunk.chunkId());
            link(c, doc, new Edge(RelationType.PART_OF, 1.0, documentId, true), owned);
            Set<String> seen = new HashSet<>();
            for (Mention m : chunk.mentions()) {
                NodeRef e = entityNode(m.entityId(), m.surface(), m.kind(), false);
                if (seen.add(e.id())) {
                    link(c, e, new Edge(RelationType.MENTIONS, 1.0, documentId, false), owned);
                }
            }
        }
        chunksByDocument.put(documentId, chunkIds);
        for (Relation r : relations) {
            NodeRef from = resolve(r.from());
            NodeRef to = resolve(r.to());
            if (!from.equals(to)) {
                link(from, to, new Edge(r.type(), r.confidence(), documentId, false), owned);
            }
        }
        edgesByOrigin.put(documentId, owned);
    }

    /** Write lock held. */
    boolean remove(String documentId) {
        boolean present = chunksByDocument.containsKey(documentId);
        removeOwned(documentId);
        NodeRef doc = NodeRef.document(documentId);
        if (graph.containsVertex(doc) && graph.degreeOf(doc) == 0) {
            graph.removeVertex(doc);
        }
        return present;
    }

    /** Write lock held. */
    GraphRelation addApiRelation(Relation r) {
        NodeRef from = resolve(r.from());
        NodeRef to = resolve(r.to());
        if (from.equals(to)) {
            throw new IllegalArgumentException(
                    "illegal relation: " + from + " -> " + to + ", ends must differ");
        }
        Edge edge = new Edge(r.type(), r.confidence(), Edge.API_ORIGIN, false);
        link(
                from,
                to,
                edge,
                edgesByOrigin.computeIfAbsent(Edge.API_ORIGIN, k -> new ArrayList<>()));
        return new GraphRelation(from, to, r.type(), edge.defaultWeight());
    }

    /** Write lock held. */
    boolean removeApiRelation(Relation r) {
        List<Edge> api = edgesByOrigin.getOrDefault(Edge.API_ORIGIN, List.of());
        NodeRef from = peek(r.from());
        NodeRef to = peek(r.to());
        for (Edge e : api) {
            if (e.type == r.type()
                    && graph.getEdgeSource(e).equals(from)
                    && graph.getEdgeTarget(e).equals(to)) {
                api.remove(e);
                graph.removeEdge(e);
                dropIfOrphan(from);
                dropIfOrphan(to);
                return true;
            }
        }
        return false;
    }

    /** Write lock held: moves the edges of absorbed extracted entities to the declared one. */
    void merge(String declaredId, List<String> absorbed) {
        NodeRef target = new NodeRef(NodeKind.ENTITY, declaredId);
        for (String id : absorbed) {
            NodeRef source = new NodeRef(NodeKind.ENTITY, id);
            if (!graph.containsVertex(source)) {
                continue;
            }
            graph.addVertex(target);
            moveEdges(source, target);
            graph.removeVertex(source);
            placeholders.remove(id);
        }
    }

    /** Read lock held: the successors of a document (documents that supersede it). */
    List<NodeRef> successors(NodeRef doc) {
        List<NodeRef> out = new ArrayList<>();
        for (Edge e : graph.incomingEdgesOf(doc)) {
            NodeRef src = graph.getEdgeSource(e);
            if (e.type == RelationType.SUPERSEDES && src.kind() == NodeKind.DOCUMENT) {
                out.add(src);
            }
        }
        return out;
    }

    /** Read lock held. */
    Optional<Entity> entityOf(String nameOrId) {
        Optional<Entity> e = gazetteer.lookupKey(nameOrId).or(() -> gazetteer.lookup(nameOrId));
        return e.filter(x -> graph.containsVertex(new NodeRef(NodeKind.ENTITY, x.id())));
    }

    private void link(NodeRef from, NodeRef to, Edge edge, List<Edge> owned) {
        graph.addVertex(from);
        graph.addVertex(to);
        graph.addEdge(from, to, edge);
        graph.setEdgeWeight(edge, edge.defaultWeight());
        owned.add(edge);
    }

    private NodeRef resolve(NodeRef ref) {
        return switch (ref.kind()) {
            case DOCUMENT -> ref;
            case CHUNK -> throw new IllegalArgumentException("illegal relation end: " + ref);
            case ENTITY -> entityNode(ref.id(), ref.id(), EntityKind.OTHER, false);
            case UNRESOLVED -> {
                NodeRef doc = NodeRef.document(ref.id());
                if (graph.containsVertex(doc) || chunksByDocument.containsKey(ref.id())) {
                    yield doc;
                }
                yield entityNode(Canonical.key(ref.id()), ref.id(), EntityKind.OTHER, true);
            }
        };
    }

    /** Like resolve, without creating anything. Read lock held. */
    NodeRef peek(NodeRef ref) {
        return switch (ref.kind()) {
            case DOCUMENT, CHUNK -> ref;
            case ENTITY, UNRESOLVED -> {
                NodeRef doc = NodeRef.document(ref.id());
                if (ref.kind() == NodeKind.UNRESOLVED
                        && (graph.containsVertex(doc) || chunksByDocument.containsKey(ref.id()))) {
                    yield doc;
                }
                yield new NodeRef(
                        NodeKind.ENTITY,
                        gazetteer
                                .lookupKey(Canonical.key(ref.id()))
                                .map(Entity::id)
                                .orElse(Canonical.key(ref.id())));
            }
        };
    }

    private NodeRef entityNode(String key, String surface, EntityKind kind, boolean placeholder) {
        String canonical = Canonical.key(key);
        Entity entity =
                gazetteer.lookupKey(canonical).orElseGet(() -> gazetteer.observe(surface, kind));
        NodeRef node = new NodeRef(NodeKind.ENTITY, entity.id());
        if (!graph.containsVertex(node)) {
            graph.addVertex(node);
            if (placeholder && !entity.declared()) {
                placeholders.add(entity.id());
            }
        } else if (!placeholder) {
            placeholders.remove(entity.id());
        }
        return node;
    }

    private void adoptPlaceholder(String documentId, NodeRef doc) {
        String key = Canonical.key(documentId);
        if (key.isBlank()) {
            return; // an id with no letters or digits to key on (e.g. only punctuation or CJK)
        }
        NodeRef placeholder = new NodeRef(NodeKind.ENTITY, key);
        if (placeholders.remove(key) && graph.containsVertex(placeholder)) {
            moveEdges(placeholder, doc);
            graph.removeVertex(placeholder);
        }
    }

    /** Intrusive edges keep their endpoints, so a moved edge is a fresh copy. */
    private void moveEdges(NodeRef source, NodeRef target) {
        for (Edge e : new ArrayList<>(graph.edgesOf(source))) {
            NodeRef from = graph.getEdgeSource(e);
            NodeRef to = graph.getEdgeTarget(e);
            graph.removeEdge(e);
            List<Edge> owned = edgesByOrigin.get(e.origin);
            if (owned != null) {
                owned.remove(e);
            }
            NodeRef newFrom = from.equals(source) ? target : from;
            NodeRef newTo = to.equals(source) ? target : to;
            if (newFrom.equals(newTo)) {
                continue;
            }
            Edge copy = new Edge(e.type, e.confidence, e.origin, e.structural);
            link(
                    newFrom,
                    newTo,
                    copy,
                    edgesByOrigin.computeIfAbsent(e.origin, k -> new ArrayList<>()));
        }
    }

    private void removeOwned(String documentId) {
        Set<NodeRef> touched = new LinkedHashSet<>();
        for (Edge e : edgesByOrigin.getOrDefault(documentId, List.of())) {
            if (graph.containsEdge(e)) {
                touched.add(graph.getEdgeSource(e));
                touched.add(graph.getEdgeTarget(e));
                graph.removeEdge(e);
            }
        }
        edgesByOrigin.remove(documentId);
        for (String chunkId : chunksByDocument.getOrDefault(documentId, List.of())) {
            graph.removeVertex(NodeRef.chunk(chunkId));
            documentOfChunk.remove(chunkId);
        }
        chunksByDocument.remove(documentId);
        for (NodeRef node : touched) {
            dropIfOrphan(node);
        }
    }

    private void dropIfOrphan(NodeRef node) {
        if (node.kind() != NodeKind.CHUNK
                && graph.containsVertex(node)
                && graph.degreeOf(node) == 0
                && !(node.kind() == NodeKind.DOCUMENT && chunksByDocument.containsKey(node.id()))) {
            graph.removeVertex(node);
            placeholders.remove(node.id());
        }
    }
}
