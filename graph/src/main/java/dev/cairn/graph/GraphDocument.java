package dev.cairn.graph;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A document as the graph ingests it: its id, declared entities, chunk texts and front matter
 * relations. {@link EntityGraph#ingest} extracts the rest.
 *
 * @param id document id
 * @param entities entities declared in front matter
 * @param chunks chunk texts in document order (include the title in the first one if it should
 *     count)
 * @param relations front matter relations of this document: type to values, each an entity name or
 *     a document id ({@code governs: [ledger-db]})
 */
public record GraphDocument(
        String id,
        List<EntityDeclaration> entities,
        List<Chunk> chunks,
        Map<RelationType, List<String>> relations) {

    /** Validates and copies. */
    public GraphDocument {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("illegal document id: blank, must not be blank");
        }
        entities = List.copyOf(entities);
        chunks = List.copyOf(chunks);
        Map<RelationType, List<String>> copy = new java.util.EnumMap<>(RelationType.class);
        relations.forEach((type, values) -> copy.put(type, List.copyOf(values)));
        relations = java.util.Collections.unmodifiableMap(copy);
    }

    /**
     * A chunk's text.
     *
     * @param id chunk id, unique in the namespace
     * @param text the text
     */
    public record Chunk(String id, String text) {
        /** Validates. */
        public Chunk {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(text, "text");
            if (id.isBlank()) {
                throw new IllegalArgumentException("illegal chunk id: blank, must not be blank");
            }
        }
    }
}
