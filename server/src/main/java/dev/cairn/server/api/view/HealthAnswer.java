package dev.cairn.server.api.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/** {@code GET /health}: {@code UP} or {@code DOWN}, and the store check that decided it. */
public record HealthAnswer(String status, Map<String, StoreCheck> checks) {

    /** The store check; {@code reason} only when it is down. */
    public record StoreCheck(
            String kind, @JsonInclude(JsonInclude.Include.NON_NULL) String reason, String status) {}

    public static HealthAnswer of(StoreCheck store) {
        return new HealthAnswer(store.status(), Map.of("store", store));
    }
}
