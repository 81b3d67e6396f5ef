package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.cairn.store.StoredChunk;
import dev.cairn.store.StoredDocument;
import java.util.List;
import java.util.Locale;
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

    public static DocumentView of(StoredDocument d) {
        return new DocumentView(
                d.id(),
                d.version(),
                d.title(),
                d.format().name().toLowerCase(Locale.ROOT),
                d.source(),
                d.authority().key(),
                d.tags(),
                d.metadata(),
                d.contentHash(),
                d.createdAt().toString(),
                d.updatedAt().toString());
    }

    /** {@code GET documents/{id}}: the listed fields, the content and the chunks. */
    public record Detail(@JsonUnwrapped DocumentView document, String content, List<Chunk> chunks) {

        public static Detail of(StoredDocument d, List<StoredChunk> chunks) {
            return new Detail(
                    DocumentView.of(d), d.content(), chunks.stream().map(Chunk::of).toList());
        }
    }

    /** One chunk of a document. */
    public record Chunk(
            String chunkId,
            int ordinal,
            String heading,
            List<String> headingPath,
            String text,
            int tokens,
            String embeddingModel) {

        static Chunk of(StoredChunk c) {
            return new Chunk(
                    c.id(),
                    c.ordinal(),
                    c.heading(),
                    c.headingPath(),
                    c.text(),
                    c.tokenCount(),
                    c.embeddingModel());
        }
    }

    /**
     * The answer of a document upload.
     *
     * @param unchanged true when the upload asked to skip an unchanged document and it was one:
     *     nothing was embedded or written, {@code version} is the stored one
     */
    public record Ingested(String id, long version, int chunks, boolean unchanged) {}
}
