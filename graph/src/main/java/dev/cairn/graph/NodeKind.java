package dev.cairn.graph;

/**
 * Kind of a graph node, or of a relation endpoint still to be resolved.
 *
 * <p>Immutable and thread-safe.
 */
public enum NodeKind {
    /** A canonical entity; its id is the entity's canonical key ({@link Canonical#key}). */
    ENTITY,
    /** A document; its id is the document id. */
    DOCUMENT,
    /** A chunk of a document; its id is the chunk id. */
    CHUNK,
    /**
     * Only in relations handed to the graph: an entity name or a document id, as front matter
     * relation values are. The graph resolves it when it stores the relation: a document of that id
     * wins, otherwise it names an entity.
     */
    UNRESOLVED
}
