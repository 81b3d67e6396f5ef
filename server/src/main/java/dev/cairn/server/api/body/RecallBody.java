package dev.cairn.server.api.body;

import dev.cairn.memory.Layer;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.service.RecallMode;
import dev.cairn.memory.service.RecallRequest;
import dev.cairn.store.Namespace;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * {@code POST /v1/namespaces/{ns}/recall} (also the {@code recall_memory} tool's arguments). The
 * library checks the ranges; {@code query} must not be blank. {@code scope} ({@code user} or {@code
 * namespace}) says whose memories a recall without {@code userId} reads; absent, the namespace's
 * {@code recallScope} decides.
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
        limit = Objects.requireNonNullElse(limit, RecallRequest.DEFAULT_LIMIT);
        threshold = Objects.requireNonNullElse(threshold, RecallRequest.DEFAULT_THRESHOLD);
        maxTokens = Objects.requireNonNullElse(maxTokens, RecallRequest.DEFAULT_MAX_TOKENS);
        types = Objects.requireNonNullElse(types, List.of());
        layers = Objects.requireNonNullElse(layers, List.of());
        timeoutMs =
                Objects.requireNonNullElse(
                        timeoutMs, (int) RecallRequest.DEFAULT_TIMEOUT.toMillis());
        mode = Objects.requireNonNullElse(mode, RecallMode.HYBRID.name().toLowerCase(Locale.ROOT));
        scope = Objects.requireNonNullElse(scope, "");
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
        Optional<Namespace.RecallScope> recallScope =
                scope.isEmpty()
                        ? Optional.empty()
                        : Optional.of(Namespace.RecallScope.parse(scope, "scope"));
        if (recallScope.equals(Optional.of(Namespace.RecallScope.NAMESPACE)) && !userId.isBlank()) {
            throw new IllegalArgumentException(
                    "field 'scope' is 'namespace' (every user's memories) but field 'userId'"
                            + " names one user: send one of them");
        }
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
                RecallMode.parse(mode),
                recallScope);
    }
}
