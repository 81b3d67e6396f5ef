package dev.cairn.api.view;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;
import java.util.Map;

/** A document as listed; {@link Detail} adds its content and chunks. */
public record DocumentView(
        String id,
        long version,
        String title,
        String format,
        String source,
        String authority,
        List<String> tags,
        Map<String, String> metadata,
        String contentHash,
        String createdAt,
        String updatedAt) {

    /** {@code GET documents/{id}}: the listed fields, the content and the chunks. */
    public record Detail(
            @JsonUnwrapped DocumentView document, String content, List<Chunk> chunks) {}

    /** One chunk of a document. */
    public record Chunk(
            String chunkId,
            int ordinal,
            String heading,
            List<String> headingPath,
            String text,
            int tokens,
            String embeddingModel) {}

    /**
     * The answer of a document upload.
     *
     * @param unchanged true when the upload asked to skip an unchanged document and it was one:
     *     nothing was embedded or written, {@code version} is the stored one
     */
    public record Ingested(String id, long version, int chunks, boolean unchanged) {}
}
