package dev.cairn.graph;

import java.util.Objects;

/**
 * Reference to a graph node: entity, document or chunk.
 *
 * @param kind what the node is
 * @param id entity canonical key, document id or chunk id; not blank
 */
public record NodeRef(NodeKind kind, String id) implements Comparable<NodeRef> {

    /** Validates. */
    public NodeRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("illegal node id: '" + id + "', must not be blank");
        }
    }

    /**
     * An entity by name or alias; the name is canonicalised ({@link Canonical#key}).
     *
     * @param name entity name
     * @return the reference
     */
    public static NodeRef entity(String name) {
        return new NodeRef(NodeKind.ENTITY, Canonical.key(name));
    }

    /**
     * A document.
     *
     * @param documentId document id
     * @return the reference
     */
    public static NodeRef document(String documentId) {
        return new NodeRef(NodeKind.DOCUMENT, documentId);
    }

    /**
     * A chunk.
     *
     * @param chunkId chunk id
     * @return the reference
     */
    public static NodeRef chunk(String chunkId) {
        return new NodeRef(NodeKind.CHUNK, chunkId);
    }

    /**
     * An entity name or document id, resolved by the graph (see {@link NodeKind#UNRESOLVED}).
     *
     * @param value front matter relation value
     * @return the reference
     */
    public static NodeRef unresolved(String value) {
        return new NodeRef(NodeKind.UNRESOLVED, value.strip());
    }

    @Override
    public int compareTo(NodeRef other) {
        int byKind = kind.compareTo(other.kind);
        return byKind != 0 ? byKind : id.compareTo(other.id);
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + ":" + id;
    }
}
