package dev.cairn.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * {@code GET /health}: {@code UP} or {@code DOWN} (then with status 503), the store check that
 * decided it, and the embedding model this server writes vectors under.
 */
public record HealthAnswer(String status, Map<String, StoreCheck> checks, Model model) {

    /**
     * The model id this server stores with every vector it writes (the model and its vector space,
     * the same on every server of a deployment) and the arithmetic it computes them in, which
     * depends on its CPU and settings (e.g. {@code documents bfloat16, queries int8}).
     */
    public record Model(String id, String precision) {}

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
            Map<String, Long> indexLag) {}

    /** Whether the server answers with its store up. */
    public boolean up() {
        return "UP".equals(status);
    }
}
