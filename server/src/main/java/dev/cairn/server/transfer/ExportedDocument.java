package dev.cairn.server.transfer;

import dev.cairn.graph.EntityDeclaration;
import dev.cairn.graph.EntityKind;
import dev.cairn.graph.RelationType;
import dev.cairn.retrieval.DocumentCopy;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.retrieval.store.ChunkDraft;
import dev.cairn.retrieval.store.DocumentFormat;
import java.util.List;
import java.util.Map;

/**
 * A knowledge document as one line of the export file: its fields and full text, the key of the
 * ingest that stored it, its front matter's entities and relations, and its chunks with vectors.
 */
record ExportedDocument(
        String type,
        String id,
        String title,
        DocumentFormat format,
        String source,
        Authority authority,
        List<String> tags,
        Map<String, String> metadata,
        String content,
        String ingestKey,
        List<Entity> entities,
        Map<RelationType, List<String>> relations,
        List<Chunk> chunks) {

    static final String TYPE = "document";

    /** A front matter entity. */
    record Entity(String name, EntityKind kind, List<String> aliases) {}

    /** A chunk: its place, text and vector ({@code ""} when it has none). */
    record Chunk(
            int ordinal,
            List<String> headingPath,
            String text,
            int tokenCount,
            String embeddingModel,
            String vector) {}

    static ExportedDocument of(DocumentCopy d) {
        return new ExportedDocument(
                TYPE,
                d.id(),
                d.title(),
                d.format(),
                d.source(),
                d.authority(),
                d.tags(),
                d.metadata(),
                d.content(),
                d.ingestKey(),
                d.entities().stream()
                        .map(e -> new Entity(e.name(), e.kind(), e.aliases()))
                        .toList(),
                d.relations(),
                d.chunks().stream()
                        .map(
                                c ->
                                        new Chunk(
                                                c.ordinal(),
                                                c.headingPath(),
                                                c.text(),
                                                c.tokenCount(),
                                                c.embedding().length == 0 ? "" : c.embeddingModel(),
                                                c.embedding().length == 0
                                                        ? ""
                                                        : ExportFormat.encode(c.embedding())))
                        .toList());
    }

    /**
     * The document this line describes.
     *
     * @throws IllegalArgumentException (or NullPointerException) naming what is missing or illegal
     */
    DocumentCopy copy() {
        return new DocumentCopy(
                id,
                title,
                format,
                source,
                authority,
                tags,
                metadata,
                content,
                ingestKey,
                entities.stream()
                        .map(e -> new EntityDeclaration(e.name(), e.kind(), e.aliases()))
                        .toList(),
                relations,
                chunks.stream()
                        .map(
                                c ->
                                        new ChunkDraft(
                                                c.ordinal(),
                                                c.headingPath(),
                                                c.text(),
                                                c.tokenCount(),
                                                ExportFormat.decode(c.vector()),
                                                c.vector().isEmpty() ? "" : c.embeddingModel()))
                        .toList());
    }
}
