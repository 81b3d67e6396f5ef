package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/** {@code GET /health}: {@code UP} or {@code DOWN}, and the store check that decided it. */
public record HealthAnswer(String status, Map<String, StoreCheck> checks) {

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

    public static HealthAnswer of(StoreCheck store) {
        return new HealthAnswer(store.status(), Map.of("store", store));
    }
}
