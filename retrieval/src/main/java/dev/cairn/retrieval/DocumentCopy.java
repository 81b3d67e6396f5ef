package dev.cairn.retrieval;

import dev.cairn.graph.EntityDeclaration;
import dev.cairn.graph.RelationType;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.retrieval.store.ChunkDraft;
import dev.cairn.retrieval.store.DocumentDraft;
import dev.cairn.retrieval.store.DocumentFormat;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A knowledge document as a namespace export carries it: what it was ingested as (fields, full
 * text, the key its ingest was made under), its front matter's entities and relations, and its
 * chunks with their vectors and the model that computed them. What the graph and the indexes derive
 * from it (extracted entities, text relations, BM25) is made again where it is restored.
 */
public record DocumentCopy(
        String id,
        String title,
        DocumentFormat format,
        String source,
        Authority authority,
        List<String> tags,
        Map<String, String> metadata,
        String content,
        String ingestKey,
        List<EntityDeclaration> entities,
        Map<RelationType, List<String>> relations,
        List<ChunkDraft> chunks) {

    public DocumentCopy {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(authority, "authority");
        tags = List.copyOf(tags);
        metadata = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(metadata));
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(ingestKey, "ingestKey");
        entities = List.copyOf(entities);
        Map<RelationType, List<String>> copy = new EnumMap<>(RelationType.class);
        relations.forEach((type, targets) -> copy.put(type, List.copyOf(targets)));
        relations = java.util.Collections.unmodifiableMap(copy);
        chunks = List.copyOf(chunks);
    }

    /**
     * The document as the store writes it.
     *
     * @throws IllegalArgumentException when the store would refuse it (an id too long, ...)
     */
    public DocumentDraft draft() {
        dev.cairn.store.Identifiers.requireId(id, "document id");
        return new DocumentDraft(id, title, format, source, authority, tags, metadata, content);
    }

    /** What {@link KnowledgeBase#restore} did with a batch. */
    public record Restored(int written, int unchanged, int vectorsReused, int embedded) {}
}
