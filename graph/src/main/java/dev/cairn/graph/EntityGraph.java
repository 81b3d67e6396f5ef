package dev.cairn.graph;

import java.util.List;
import java.util.Optional;

/**
 * Entities, documents and chunks of every namespace with their typed relations, held in memory as
 * one JGraphT graph per namespace (derived data: rebuild it from the store on start).
 *
 * <p>Nodes are entities (by canonical key), documents and chunks. Edges: {@code chunk -part_of->
 * document} (structural), {@code chunk -mentions-> entity}, and typed relations between entities
 * and documents. Every edge remembers the document that brought it, so {@link #removeDocument}
 * takes back exactly that document's edges; relations added through {@link #addRelation} belong to
 * no document and stay until {@link #removeRelation}.
 *
 * <p>Thread-safe: each namespace has a {@link java.util.concurrent.locks.ReentrantReadWriteLock};
 * any number of rankings and lookups read concurrently, a writer (one document's upsert, a few
 * microseconds to a millisecond) excludes them briefly. A copy-on-write snapshot would let readers
 * run during writes, but copies the whole namespace graph per write: for 50k entities and 200k
 * relations that is tens of milliseconds and hundreds of MB of garbage per ingested document (see
 * {@code GraphSignalBenchmark}), which bulk ingest cannot afford.
 */
public interface EntityGraph {

    /**
     * An empty in-memory graph.
     *
     * @return the graph
     */
    static EntityGraph inMemory() {
        return new InMemoryEntityGraph();
    }

    /**
     * The names of a namespace (created on first use).
     *
     * @param namespace namespace
     * @return its gazetteer
     */
    Gazetteer gazetteer(String namespace);

    /**
     * A rule-based extractor over the namespace's gazetteer.
     *
     * @param namespace namespace
     * @return the extractor
     */
    EntityExtractor extractor(String namespace);

    /**
     * Declares the document's entities, extracts mentions and stated relations from its chunks,
     * adds its front matter relations and replaces the document's previous version in one step.
     *
     * @param namespace namespace
     * @param document document
     * @return what was stored
     */
    IngestSummary ingest(String namespace, GraphDocument document);

    /**
     * Replaces everything a document brought to the graph (its chunks, their mentions, its
     * relations) with the given ones. Entities named by mentions and relations are created when
     * missing.
     *
     * @param namespace namespace
     * @param documentId document id
     * @param chunks the document's chunks with their mentions
     * @param relations relations stated by the document; a {@link NodeKind#UNRESOLVED} end is a
     *     document when one of that id exists, else an entity
     */
    void upsertDocument(
            String namespace,
            String documentId,
            List<ChunkEntities> chunks,
            List<Relation> relations);

    /**
     * Removes a document's chunks and the edges it brought; entities left without edges go. A
     * document node that other documents still point at stays, without chunks.
     *
     * @param namespace namespace
     * @param documentId document id
     * @return true when the document was there
     */
    boolean removeDocument(String namespace, String documentId);

    /**
     * Adds a relation that belongs to no document ({@code POST relations}).
     *
     * @param namespace namespace
     * @param relation the relation
     * @return the stored relation (ends resolved)
     */
    GraphRelation addRelation(String namespace, Relation relation);

    /**
     * Where a relation end lands in the graph now, creating nothing: a document id names the
     * document once it is in the graph, anything else the entity of that name or alias (its
     * canonical key when the graph does not know it yet).
     *
     * @param namespace namespace
     * @param ref a relation end as given
     * @return the node it names
     */
    NodeRef locate(String namespace, NodeRef ref);

    /**
     * Removes a relation added by {@link #addRelation}.
     *
     * @param namespace namespace
     * @param relation the relation as added
     * @return true when it was there
     */
    boolean removeRelation(String namespace, Relation relation);

    /**
     * Forgets a namespace.
     *
     * @param namespace namespace
     */
    void dropNamespace(String namespace);

    /**
     * Entities whose name or an alias contains {@code query} (case-insensitive, canonicalised);
     * exact matches first, then prefix matches, then the rest, each by degree desc, id asc.
     *
     * @param namespace namespace
     * @param query part of a name; blank lists all entities
     * @param limit at most this many, {@code >= 1}
     * @return matching entities present in the graph
     */
    List<EntitySummary> searchEntities(String namespace, String query, int limit);

    /**
     * An entity with its relations.
     *
     * @param namespace namespace
     * @param id canonical key, or any name or alias of the entity
     * @return the entity, if it is in the graph
     */
    Optional<EntityDetail> entity(String namespace, String id);

    /**
     * The entities a document's chunks mention and the relations it brought.
     *
     * @param namespace namespace
     * @param documentId document id
     * @return empty when the document is not in the graph
     */
    Optional<DocumentGraph> document(String namespace, String documentId);

    /**
     * Every relation of one type in the namespace (declared, posted or extracted; not the
     * structural document-chunk links), in no particular order.
     *
     * @param namespace namespace
     * @param type the relation type
     * @return the relations; empty when the namespace has none of that type
     */
    List<GraphRelation> relations(String namespace, RelationType type);

    /**
     * Node and edge counts of a namespace.
     *
     * @param namespace namespace
     * @return the counts
     */
    Stats stats(String namespace);

    /**
     * Size of a namespace's graph.
     *
     * @param entities entity nodes
     * @param documents document nodes
     * @param chunks chunk nodes
     * @param edges edges of every kind
     */
    record Stats(int entities, int documents, int chunks, int edges) {}
}
