package dev.cairn.server.api.body;

import dev.cairn.memory.Layer;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.service.RecallMode;
import dev.cairn.memory.service.RecallRequest;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * {@code POST /v1/namespaces/{ns}/recall} (also the {@code recall_memory} tool's arguments). The
 * library checks the ranges; {@code query} must not be blank.
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
        String mode) {

    public RecallBody {
        query = Objects.requireNonNullElse(query, "");
        userId = Objects.requireNonNullElse(userId, "");
        agentId = Objects.requireNonNullElse(agentId, "");
        limit = Objects.requireNonNullElse(limit, RecallRequest.DEFAULT_LIMIT);
        threshold = Objects.requireNonNullElse(threshold, RecallRequest.DEFAULT_THRESHOLD);
        maxTokens = Objects.requireNonNullElse(maxTokens, RecallRequest.DEFAULT_MAX_TOKENS);
        types = Objects.requireNonNullElse(types, List.of());
        layers = Objects.requireNonNullElse(layers, List.of());
        timeoutMs =
                Objects.requireNonNullElse(
                        timeoutMs, (int) RecallRequest.DEFAULT_TIMEOUT.toMillis());
        mode = Objects.requireNonNullElse(mode, RecallMode.HYBRID.name().toLowerCase(Locale.ROOT));
    }

    /** The recall in a namespace; 400 naming {@code query} when it is blank. */
    public RecallRequest toRequest(String namespace) {
        if (query.isBlank()) {
            throw new IllegalArgumentException("field 'query' is required");
        }
        Set<MemoryType> typeSet = EnumSet.noneOf(MemoryType.class);
        types.forEach(t -> typeSet.add(MemoryType.parse(t)));
        Set<Layer> layerSet = EnumSet.noneOf(Layer.class);
        layers.forEach(l -> layerSet.add(Layer.parse(l)));
        return new RecallRequest(
                namespace,
                query,
                userId,
                agentId,
                limit,
                threshold,
                maxTokens,
                typeSet,
                layerSet,
                Duration.ofMillis(timeoutMs),
                RecallMode.parse(mode));
    }
}
