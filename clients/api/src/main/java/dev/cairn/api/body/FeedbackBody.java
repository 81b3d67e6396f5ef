package dev.cairn.api.body;

import java.util.List;
import java.util.Objects;

/**
 * {@code POST /v1/namespaces/{ns}/feedback}: judgments of one query. Each item names exactly one of
 * {@code documentId}, {@code chunkId}, {@code memoryId}; its grade defaults to 1 (relevant), 0 says
 * not relevant. The source defaults to {@code operator}.
 */
public record FeedbackBody(String query, List<Item> relevant, String source) {

    public FeedbackBody {
        query = Objects.requireNonNullElse(query, "");
        relevant = relevant == null ? List.of() : relevant;
        source = Objects.requireNonNullElse(source, "operator");
    }

    /** One judged document, chunk or memory. */
    public record Item(String documentId, String chunkId, String memoryId, Integer grade) {

        public Item {
            grade = Objects.requireNonNullElse(grade, 1);
        }
    }
}
