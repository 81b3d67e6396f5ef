package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.embeddings.EmbeddingModel;
import java.util.Map;

/**
 * {@code GET /health}: {@code UP} or {@code DOWN}, the store check that decided it, and the
 * embedding model this server writes vectors under.
 */
public record HealthAnswer(String status, Map<String, StoreCheck> checks, Model model) {

    /**
     * The model id this server stores with every vector it writes (the model and its vector space,
     * the same on every server of a deployment) and the arithmetic it computes them in, which
     * depends on its CPU and settings (e.g. {@code documents bfloat16, queries int8}).
     */
    public record Model(String id, String precision) {

        public static Model of(EmbeddingModel model) {
            return new Model(model.id(), model.precision());
        }
    }

    /**
     * The store check; {@code reason} only when it is down; when it is up, the sequence of its last
     * change and, per derived index (Lucene, vectors, graph, ...), how many changes it is behind.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record StoreCheck(
            String kind,
            String reason,
            String status,
            Long lastChangeSeq,
            Map<String, Long> indexLag) {

        public static StoreCheck up(String kind, long lastChangeSeq, Map<String, Long> positions) {
            Map<String, Long> lag = new java.util.TreeMap<>();
            positions.forEach((name, seq) -> lag.put(name, Math.max(0, lastChangeSeq - seq)));
            return new StoreCheck(kind, null, "UP", lastChangeSeq, lag);
        }

        public static StoreCheck down(String kind, String reason) {
            return new StoreCheck(kind, reason, "DOWN", null, null);
        }
    }

    public static HealthAnswer of(StoreCheck store, Model model) {
        return new HealthAnswer(store.status(), Map.of("store", store), model);
    }
}
