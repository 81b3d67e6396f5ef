package dev.cairn.server.api;

import dev.cairn.api.body.NamespaceBody;
import dev.cairn.api.body.NamespaceSettingsBody;
import dev.cairn.api.body.RecallBody;
import dev.cairn.api.body.RetrieveBody;
import dev.cairn.memory.Layer;
import dev.cairn.memory.MemoryType;
import dev.cairn.memory.service.RecallMode;
import dev.cairn.memory.service.RecallRequest;
import dev.cairn.retrieval.FusionStrategy;
import dev.cairn.retrieval.RetrieveFilters;
import dev.cairn.retrieval.RetrieveRequest;
import dev.cairn.retrieval.fusion.Fusion;
import dev.cairn.retrieval.fusion.SignalWeights;
import dev.cairn.retrieval.store.Authority;
import dev.cairn.store.Namespace;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The libraries' requests from the bound wire bodies ({@code dev.cairn.api.body}): a field the body
 * leaves null takes the default of the library that owns it here, so each default is defined once.
 * The libraries check the ranges. Stateless, thread-safe.
 */
public final class LibraryRequests {

    private LibraryRequests() {}

    /** The retrieve request of a {@code POST retrieve} body (also the tool's and the CLI's). */
    public static RetrieveRequest retrieve(RetrieveBody body) {
        RetrieveBody.Weights w = body.weights();
        Set<Authority> authorities = EnumSet.noneOf(Authority.class);
        body.filters().authority().forEach(a -> authorities.add(Authority.parse(a)));
        return new RetrieveRequest(
                body.query(),
                Objects.requireNonNullElse(body.topK(), RetrieveRequest.DEFAULT_TOP_K),
                Objects.requireNonNullElse(body.candidates(), RetrieveRequest.DEFAULT_CANDIDATES),
                SignalWeights.of(
                        Objects.requireNonNullElse(w.lexical(), SignalWeights.DEFAULT_LEXICAL),
                        Objects.requireNonNullElse(w.dense(), SignalWeights.DEFAULT_DENSE),
                        Objects.requireNonNullElse(w.graph(), SignalWeights.DEFAULT_GRAPH)),
                Objects.requireNonNullElse(body.k(), Fusion.DEFAULT_K),
                body.fusion() == null
                        ? FusionStrategy.DEFAULT
                        : FusionStrategy.parse(body.fusion()),
                new RetrieveFilters(
                        body.filters().tags(),
                        body.filters().sources(),
                        authorities,
                        body.filters().metadata()),
                body.explain(),
                body.userId());
    }

    /** The recall in a namespace; 400 naming {@code query} when it is blank. */
    public static RecallRequest recall(String namespace, RecallBody body) {
        if (body.query().isBlank()) {
            throw new IllegalArgumentException("field 'query' is required");
        }
        Set<MemoryType> typeSet = EnumSet.noneOf(MemoryType.class);
        body.types().forEach(t -> typeSet.add(MemoryType.parse(t)));
        Set<Layer> layerSet = EnumSet.noneOf(Layer.class);
        body.layers().forEach(l -> layerSet.add(Layer.parse(l)));
        Optional<Namespace.RecallScope> recallScope =
                body.scope().isEmpty()
                        ? Optional.empty()
                        : Optional.of(Namespace.RecallScope.parse(body.scope(), "scope"));
        if (recallScope.equals(Optional.of(Namespace.RecallScope.NAMESPACE))
                && !body.userId().isBlank()) {
            throw new IllegalArgumentException(
                    "field 'scope' is 'namespace' (every user's memories) but field 'userId'"
                            + " names one user: send one of them");
        }
        return new RecallRequest(
                namespace,
                body.query(),
                body.userId(),
                body.agentId(),
                Objects.requireNonNullElse(body.limit(), RecallRequest.DEFAULT_LIMIT),
                Objects.requireNonNullElse(body.threshold(), RecallRequest.DEFAULT_THRESHOLD),
                Objects.requireNonNullElse(body.maxTokens(), RecallRequest.DEFAULT_MAX_TOKENS),
                typeSet,
                layerSet,
                body.timeoutMs() == null
                        ? RecallRequest.DEFAULT_TIMEOUT
                        : Duration.ofMillis(body.timeoutMs()),
                body.mode() == null ? RecallMode.HYBRID : RecallMode.parse(body.mode()),
                recallScope);
    }

    /** A new namespace's recall scope: {@code user} when the body leaves it out. */
    public static Namespace.RecallScope recallScope(NamespaceBody body) {
        return body.recallScope() == null
                ? Namespace.RecallScope.USER
                : Namespace.RecallScope.parse(body.recallScope(), "recallScope");
    }

    /** The recall scope a {@code PATCH} sets; 400 when it is missing. */
    public static Namespace.RecallScope recallScope(NamespaceSettingsBody body) {
        if (body.recallScope() == null) {
            throw new IllegalArgumentException("field 'recallScope' is required");
        }
        return Namespace.RecallScope.parse(body.recallScope(), "recallScope");
    }
}
