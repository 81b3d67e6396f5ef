package dev.cairn.api.body;

import java.util.List;
import java.util.Objects;

/**
 * {@code POST /v1/namespaces/{ns}/recall} (also the {@code recall_memory} tool's arguments). The
 * server checks the ranges; {@code query} must not be blank. {@code scope} ({@code user} or {@code
 * namespace}) says whose memories a recall without {@code userId} reads; empty, the namespace's
 * {@code recallScope} decides. A null {@code limit}, {@code threshold}, {@code maxTokens}, {@code
 * timeoutMs} or {@code mode} takes the server's default (25, 0.25, 3500, 3000, {@code hybrid}).
 */
public record RecallBody(
        String query,
        String userId,
        String agentId,
        Integer limit,
        Double threshold,
        Integer maxTokens,
        List<String> types,
        List<String> layers,
        Integer timeoutMs,
        String mode,
        String scope) {

    public RecallBody {
        query = Objects.requireNonNullElse(query, "");
        userId = Objects.requireNonNullElse(userId, "");
        agentId = Objects.requireNonNullElse(agentId, "");
        types = Objects.requireNonNullElse(types, List.of());
        layers = Objects.requireNonNullElse(layers, List.of());
        scope = Objects.requireNonNullElse(scope, "");
    }

    /** One user's memories for a query, every other setting at the server's default. */
    public static RecallBody of(String query, String userId) {
        return new RecallBody(query, userId, null, null, null, null, null, null, null, null, null);
    }
}
