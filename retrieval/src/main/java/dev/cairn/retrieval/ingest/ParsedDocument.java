package dev.cairn.retrieval.ingest;

import dev.cairn.graph.RelationType;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.retrieval.store.DocumentFormat;
import dev.cairn.store.Identifiers;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A document after parsing, before chunking.
 *
 * @param id document id (from front matter, the corpus, or the file name)
 * @param title title (front matter, else first {@code # } heading, else file name)
 * @param format source format
 * @param authority declared authority, {@link Authority#DEFAULT} when none
 * @param tags declared tags
 * @param source declared source (URL or path); "" when none
 * @param metadata unknown front-matter keys, values as strings
 * @param entities declared entities
 * @param relations declared relations: type to target entity names or document ids
 * @param body the text without front matter
 */
public record ParsedDocument(
        String id,
        String title,
        DocumentFormat format,
        Authority authority,
        List<String> tags,
        String source,
        Map<String, String> metadata,
        List<DeclaredEntity> entities,
        Map<RelationType, List<String>> relations,
        String body) {

    public ParsedDocument {
        Identifiers.requireId(id, "document id");
        if (title == null
                || format == null
                || authority == null
                || source == null
                || body == null) {
            throw new IllegalArgumentException(
                    "illegal document "
                            + id
                            + ": title, format, authority, source and body are required");
        }
        tags = List.copyOf(tags);
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        entities = List.copyOf(entities);
        EnumMap<RelationType, List<String>> copy = new EnumMap<>(RelationType.class);
        relations.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        relations = Collections.unmodifiableMap(copy);
    }

    /** A plain document with defaults for everything but id, title, format and body. */
    public static ParsedDocument plain(
            String id, String title, DocumentFormat format, String body) {
        return new ParsedDocument(
                id,
                title,
                format,
                Authority.DEFAULT,
                List.of(),
                "",
                Map.of(),
                List.of(),
                Map.of(),
                body);
    }
}
