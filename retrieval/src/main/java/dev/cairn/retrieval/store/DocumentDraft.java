package dev.cairn.retrieval.store;

import dev.cairn.store.Records;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A document as written by ingestion; the store adds version, hash and timestamps.
 *
 * @param id document id, unique in its namespace, not blank, at most {@value #MAX_ID_LENGTH} chars
 * @param title display title (may be empty)
 * @param format how {@code content} is written
 * @param source where it came from, e.g. a URL or path (may be empty)
 * @param authority how far it can be trusted
 * @param tags free-form tags, in order
 * @param metadata free-form string metadata
 * @param content the full original text
 */
public record DocumentDraft(
        String id,
        String title,
        DocumentFormat format,
        String source,
        Authority authority,
        List<String> tags,
        Map<String, String> metadata,
        String content) {

    public static final int MAX_ID_LENGTH = 512;

    public DocumentDraft {
        Records.requireText(id, "id");
        if (id.length() > MAX_ID_LENGTH) {
            throw new IllegalArgumentException(
                    "illegal id length: " + id.length() + ", must be <= " + MAX_ID_LENGTH);
        }
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(authority, "authority");
        tags = Records.copyStrings(tags, "tags");
        metadata = Records.copyMap(metadata, "metadata");
        Objects.requireNonNull(content, "content");
    }

    /** A plain document with no source, tags or metadata, {@link Authority#UNVERIFIED}. */
    public static DocumentDraft of(String id, String title, DocumentFormat format, String content) {
        return new DocumentDraft(
                id, title, format, "", Authority.UNVERIFIED, List.of(), Map.of(), content);
    }
}
