package dev.cairn.retrieval.store;

import dev.cairn.store.Namespace;
import dev.cairn.store.Records;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A document as stored: the system-of-record copy, with the full original content.
 *
 * @param namespace the namespace it lives in
 * @param id document id, unique in its namespace
 * @param version 1 for the first write, bumped by each replace
 * @param title display title (may be empty)
 * @param format how {@code content} is written
 * @param source where it came from (may be empty)
 * @param authority how far it can be trusted
 * @param tags free-form tags, in order
 * @param metadata free-form string metadata
 * @param content the full original text
 * @param contentHash lowercase hex SHA-256 of {@code content} in UTF-8
 * @param createdAt when version 1 was written
 * @param updatedAt when this version was written
 */
public record StoredDocument(
        String namespace,
        String id,
        long version,
        String title,
        DocumentFormat format,
        String source,
        Authority authority,
        List<String> tags,
        Map<String, String> metadata,
        String content,
        String contentHash,
        Instant createdAt,
        Instant updatedAt) {

    public StoredDocument {
        Namespace.requireValidName(namespace);
        Records.requireText(id, "id");
        if (version < 1) {
            throw new IllegalArgumentException("illegal version: " + version + ", must be >= 1");
        }
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(authority, "authority");
        tags = Records.copyStrings(tags, "tags");
        metadata = Records.copyMap(metadata, "metadata");
        Objects.requireNonNull(content, "content");
        Records.requireText(contentHash, "contentHash");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }
}
