package dev.cairn.client;

import dev.cairn.api.view.RetrieveAnswer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A retrieve hit as flat key-value metadata, the form in which the framework adapters (LangChain4j,
 * Spring AI) attach it to a retrieved passage: what a caller needs to cite, judge or give feedback
 * on an answer. Keys are the constants here; a field the hit does not have is left out (frameworks
 * refuse null values); ranks are {@code Long}, scores {@code Double}. Stateless, thread-safe.
 */
public final class HitMetadata {

    /** The retrieve's trace id, for {@code judge} and {@code feedback}. */
    public static final String TRACE_ID = "cairn.traceId";

    public static final String CHUNK_ID = "cairn.chunkId";
    public static final String DOCUMENT_ID = "cairn.documentId";
    public static final String TITLE = "cairn.title";
    public static final String HEADING = "cairn.heading";
    public static final String AUTHORITY = "cairn.authority";

    /** The fused score. */
    public static final String SCORE = "cairn.score";

    /**
     * The key prefix of a signal's rank: {@code cairn.rank.lexical}, {@code cairn.rank.dense}...
     */
    public static final String RANK_PREFIX = "cairn.rank.";

    /** The key prefix of a signal's score: {@code cairn.score.lexical}... */
    public static final String SCORE_PREFIX = "cairn.score.";

    private HitMetadata() {}

    /** The hit's metadata, in the order of the constants above, then ranks, then scores. */
    public static Map<String, Object> of(String traceId, RetrieveAnswer.Hit hit) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        putText(metadata, TRACE_ID, traceId);
        putText(metadata, CHUNK_ID, hit.chunkId());
        putText(metadata, DOCUMENT_ID, hit.documentId());
        putText(metadata, TITLE, hit.title());
        putText(metadata, HEADING, hit.heading());
        putText(metadata, AUTHORITY, hit.authority());
        metadata.put(SCORE, hit.score());
        putNumbers(metadata, RANK_PREFIX, hit.ranks());
        putNumbers(metadata, SCORE_PREFIX, hit.scores());
        return metadata;
    }

    private static void putText(Map<String, Object> metadata, String key, String value) {
        if (value != null && !value.isEmpty()) {
            metadata.put(key, value);
        }
    }

    // ranks are whole numbers, scores fractions; each keeps its own type
    private static void putNumbers(
            Map<String, Object> metadata, String prefix, Map<String, Number> values) {
        if (values == null) {
            return;
        }
        values.forEach(
                (signal, value) -> {
                    if (value instanceof Integer || value instanceof Long) {
                        metadata.put(prefix + signal, value.longValue());
                    } else if (value != null) {
                        metadata.put(prefix + signal, value.doubleValue());
                    }
                });
    }
}
