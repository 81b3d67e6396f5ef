package dev.cairn.server.api.view;

import java.util.Map;

/**
 * What an import ({@code POST /v1/namespaces/{ns}/import}, {@code cairn import}) did: records of
 * each kind in the file, memories written (created or replaced) and already stored as they are,
 * history entries appended, vectors taken from the file and memories embedded again.
 *
 * @param written records created or replaced (memories, documents, conversations, entries,
 *     relations, proposals, judgments, adaptations, policies)
 * @param unchanged records already stored exactly so (a second import of one file)
 * @param skipped records left out: adaptations trained for another model's vectors
 */
public record ImportAnswer(
        String namespace,
        Map<String, Long> records,
        long written,
        long unchanged,
        long historyAppended,
        long vectorsReused,
        long embedded,
        long skipped) {}
